import type { int32, ObjectMeta } from "@kbts/runtime";

export interface GizmoSpec {
  // count cannot have a string length.
  // +kubebuilder:validation:MaxLength=3
  count: int32;
  // name cannot have a number of items.
  // +kubebuilder:validation:MinItems=1
  name: string;
  // ports are not a list type target.
  // +kubebuilder:validation:items:Minimum=1
  port: int32;
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
