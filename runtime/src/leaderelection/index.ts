export * from "./elector.js";
export * from "./fence.js";
export * from "./lock.js";
