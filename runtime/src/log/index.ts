export { namedLogger, setLogger } from "./delegating.js";
export * from "./logger.js";
export { TIME_ENCODINGS, type TimeEncoding } from "./time.js";
export * from "./zap.js";
