import type { ObjectMeta } from "@kbts/runtime";

export interface SailorSpec {
  // +optional
  rank?: string;
}

// +kubebuilder:object:root=true
// Sailor is a test kind.
export interface Sailor {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: SailorSpec;
}
