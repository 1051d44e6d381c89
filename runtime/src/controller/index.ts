export * from "./controller.js";
export * from "./names.js";
export * from "./source.js";
