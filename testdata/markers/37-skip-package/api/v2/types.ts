import type { ObjectMeta } from "@kbts/runtime";

export interface KayakSpec {
  // fieldv2 exists only in v2.
  // +optional
  fieldv2?: string;
}

// +kubebuilder:object:root=true
// Kayak is a test kind.
export interface Kayak {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: KayakSpec;
}
