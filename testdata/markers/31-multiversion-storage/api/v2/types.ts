import type { ObjectMeta } from "@kbts/runtime";

export interface ShipSpec {
  // fieldv2 exists only in v2.
  // +optional
  fieldv2?: string;
}

// +kubebuilder:storageversion
// +kubebuilder:object:root=true
// Ship is a test kind.
export interface Ship {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: ShipSpec;
}
