import type { int32, ObjectMeta } from "@kbts/runtime";

export interface GizmoSpec {
  // size must be positive.
  // +kubebuilder:validation:XValidation:rule="self >",message="size must be positive"
  size: int32;
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
