import type { ObjectMeta } from "@kbts/runtime";

export interface DeedSpec {
  // owner can never change.
  // +k8s:immutable
  owner: string;
  // notary can be set once.
  // +k8s:immutable
  // +optional
  notary?: string;
}

// +kubebuilder:object:root=true
// Deed is a test kind.
export interface Deed {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: DeedSpec;
}
