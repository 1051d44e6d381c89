export * from "./queue.js";
export * from "./ratelimiter.js";
