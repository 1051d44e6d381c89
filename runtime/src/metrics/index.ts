export * from "./registry.js";
