import type { ObjectMeta } from "@kbts/runtime";

export interface BoatSpec {
  // fieldv1alpha1 exists only in v1alpha1.
  // +optional
  fieldv1alpha1?: string;
}

// +kubebuilder:deprecatedversion
// +kubebuilder:object:root=true
// Boat is a test kind.
export interface Boat {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: BoatSpec;
}
