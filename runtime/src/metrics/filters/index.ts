export * from "./filters.js";
