import type { ObjectMeta } from "@kbts/runtime";

export interface KayakSpec {
  // fieldv1 exists only in v1.
  // +optional
  fieldv1?: string;
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
