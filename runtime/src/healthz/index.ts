export * from "./healthz.js";
