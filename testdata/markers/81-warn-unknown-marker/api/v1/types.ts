import type { ObjectMeta } from "@kbts/runtime";

export interface GizmoSpec {
  // name must be short.
  // +kubebuilder:validation:MaxLenght=5
  name: string;
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
