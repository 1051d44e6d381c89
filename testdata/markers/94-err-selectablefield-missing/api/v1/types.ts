import type { ObjectMeta } from "@kbts/runtime";

export interface GizmoSpec {
  // +optional
  color?: string;
}

// +kubebuilder:selectablefield:JSONPath=`.spec.colour`
// +kubebuilder:object:root=true
// Gizmo is a test kind.
export interface Gizmo {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: GizmoSpec;
}
