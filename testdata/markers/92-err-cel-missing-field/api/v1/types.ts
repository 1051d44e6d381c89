import type { int32, ObjectMeta } from "@kbts/runtime";

// +kubebuilder:validation:XValidation:rule="self.minimum <= self.maximum",message="minimum must not exceed maximum"
export interface GizmoSpec {
  // +optional
  min?: int32;
  // +optional
  max?: int32;
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
