import type { ObjectMeta } from "@kbts/runtime";

export interface CanoeSpec {
  // fieldv1 exists only in v1.
  // +optional
  fieldv1?: string;
}

// +kubebuilder:object:root=true
// Canoe is a test kind.
export interface Canoe {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: CanoeSpec;
}
