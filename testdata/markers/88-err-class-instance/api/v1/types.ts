import type { ObjectMeta } from "@kbts/runtime";

export interface GizmoSpec {
  // createdAt is a Date object, not a string.
  createdAt: Date;
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
