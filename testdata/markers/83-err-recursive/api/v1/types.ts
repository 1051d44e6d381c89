import type { ObjectMeta } from "@kbts/runtime";

export interface GizmoSpec {
  // root is a tree.
  root: Node;
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

// Node refers to itself, which a CRD schema cannot express.
export interface Node {
  // +optional
  children?: Node[];
}
