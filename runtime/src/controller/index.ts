export {
  ConditionalController,
  type ConditionalControllerDeps,
  type WhenServedOptions,
} from "./conditional.js";
export * from "./controller.js";
export {
  DEFAULT_HOT_LOOP_RECONCILES,
  DEFAULT_HOT_LOOP_WINDOW_MS,
  HotLoopDetector,
  type HotLoopOptions,
} from "./hot-loop.js";
export * from "./names.js";
export { OwnWriteFilter, type OwnWriteSuppression } from "./own-write-filter.js";
export * from "./source.js";
