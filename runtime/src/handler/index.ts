export * from "./enqueue.js";
export type * from "./types.js";
