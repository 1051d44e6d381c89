import type { ObjectMeta } from "@kbts/runtime";

export interface RaftSpec {
  // logs is never generated.
  logs: string;
}

// +kubebuilder:skip

// Raft is a test kind; the skip above it is package-level, so v2 gets no CRD at all.
// +kubebuilder:object:root=true
export interface Raft {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: RaftSpec;
}
