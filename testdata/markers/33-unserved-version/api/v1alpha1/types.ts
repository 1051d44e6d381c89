import type { ObjectMeta } from "@kbts/runtime";

export interface RaftSpec {
  // fieldv1alpha1 exists only in v1alpha1.
  // +optional
  fieldv1alpha1?: string;
}

// +kubebuilder:unservedversion
// +kubebuilder:object:root=true
// Raft is a test kind.
export interface Raft {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: RaftSpec;
}
