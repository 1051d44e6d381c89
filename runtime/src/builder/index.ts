export * from "./builder.js";
