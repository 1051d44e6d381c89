export * from "./cache.js";
export * from "./controller.js";
export * from "./defaults.js";
export * from "./leaderelection.js";
export * from "./registry.js";
export * from "./sharding.js";
export * from "./workqueue.js";
