export * from "./predicate.js";
