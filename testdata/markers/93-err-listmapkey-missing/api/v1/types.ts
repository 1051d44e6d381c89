import type { int32, ObjectMeta } from "@kbts/runtime";

export interface Port {
  name: string;
  port: int32;
}

export interface GizmoSpec {
  // ports are keyed by a field Port does not have.
  // +listType=map
  // +listMapKey=id
  // +optional
  ports?: Port[];
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
