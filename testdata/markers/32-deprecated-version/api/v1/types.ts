import type { ObjectMeta } from "@kbts/runtime";

export interface BoatSpec {
  // fieldv1 exists only in v1.
  // +optional
  fieldv1?: string;
}

// +kubebuilder:storageversion
// +kubebuilder:object:root=true
// Boat is a test kind.
export interface Boat {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: BoatSpec;
}
