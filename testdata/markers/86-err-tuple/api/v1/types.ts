import type { int32, ObjectMeta } from "@kbts/runtime";

export interface GizmoSpec {
  // pair is a tuple.
  pair: [string, int32];
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
