import type { ObjectMeta } from "@kbts/runtime";

export interface GizmoSpec {
  // config can be anything.
  // +optional
  config?: unknown;
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
