export * from "./enqueue.js";
export * from "./throttle.js";
export type * from "./types.js";
