export * from "./context.js";
export * from "./types.js";
