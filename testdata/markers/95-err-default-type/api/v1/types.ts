import type { int32, ObjectMeta } from "@kbts/runtime";

export interface GizmoSpec {
  // replicas defaults to a word, which is not an integer.
  // +kubebuilder:default=three
  // +optional
  replicas?: int32;
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
