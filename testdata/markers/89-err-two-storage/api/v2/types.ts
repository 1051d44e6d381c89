import type { ObjectMeta } from "@kbts/runtime";

export interface ShipSpec {
  // +optional
  name?: string;
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
