import type { ObjectMeta } from "@kbts/runtime";

export interface RaftSpec {
  // fieldv1 exists only in v1.
  // +optional
  fieldv1?: string;
}

// +kubebuilder:storageversion
// +kubebuilder:object:root=true
// Raft is a test kind.
export interface Raft {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: RaftSpec;
}
