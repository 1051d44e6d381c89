export * from "./manager.js";
export * from "./signals.js";
