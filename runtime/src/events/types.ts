import type { KubernetesObject } from "../api/meta.js";

/** Records core/v1 Events about an object (controller-runtime's record.EventRecorder). */
export interface EventRecorder {
  event(object: KubernetesObject, type: "Normal" | "Warning", reason: string, message: string): void;
}
