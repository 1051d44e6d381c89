export * from "./elector.js";
export * from "./lock.js";
