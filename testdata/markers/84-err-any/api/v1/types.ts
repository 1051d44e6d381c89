import type { ObjectMeta } from "@kbts/runtime";

export interface GizmoSpec {
  // config can be anything.
  // biome-ignore lint/suspicious/noExplicitAny: the case is about a field typed any
  config: any;
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
