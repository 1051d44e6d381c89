export {
  createEventRecorder,
  type EventRecorderOptions,
  type FlushableEventRecorder,
} from "./recorder.js";
