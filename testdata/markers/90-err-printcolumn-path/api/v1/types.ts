import type { int32, ObjectMeta } from "@kbts/runtime";

export interface GizmoSpec {
  // +optional
  size?: int32;
}

// +kubebuilder:printcolumn:name="Size",type=integer,JSONPath=`.spec.sise`
// +kubebuilder:object:root=true
// Gizmo is a test kind.
export interface Gizmo {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: GizmoSpec;
}
