import type { ObjectMeta } from "@kbts/runtime";

export interface ShipSpec {
  // fieldv1 exists only in v1.
  // +optional
  fieldv1?: string;
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
