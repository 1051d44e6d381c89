export {
  createEventRecorder,
  type EventRecorderOptions,
  type FlushableEventRecorder,
} from "./recorder.js";
export type * from "./types.js";
