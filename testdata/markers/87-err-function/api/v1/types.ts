import type { int32, ObjectMeta } from "@kbts/runtime";

export interface GizmoSpec {
  // callback is a function.
  callback: (x: int32) => void;
}

// +kubebuilder:object:root=true
// Gizmo is a test kind.
export interface Gizmo {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: GizmoSpec;
}
