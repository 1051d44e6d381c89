import type { ObjectMeta } from "@kbts/runtime";

export interface ShipSpec {
  // fieldv1beta1 exists only in v1beta1.
  // +optional
  fieldv1beta1?: string;
}

// +kubebuilder:object:root=true
// Ship is a test kind.
export interface Ship {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: ShipSpec;
}
