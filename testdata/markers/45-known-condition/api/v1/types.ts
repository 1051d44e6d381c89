import type { Condition, ObjectMeta } from "@kbts/runtime";

export interface LampStatus {
  // conditions represent the current state of the Lamp resource.
  // +listType=map
  // +listMapKey=type
  // +optional
  conditions?: Condition[];
  // last is the most recent condition on its own.
  // +optional
  last?: Condition;
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// Lamp is a test kind with conditions.
export interface Lamp {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  status?: LampStatus;
}
