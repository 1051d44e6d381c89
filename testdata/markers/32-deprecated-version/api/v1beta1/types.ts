import type { ObjectMeta } from "@kbts/runtime";

export interface BoatSpec {
  // fieldv1beta1 exists only in v1beta1.
  // +optional
  fieldv1beta1?: string;
}

// +kubebuilder:deprecatedversion:warning="deprecated.kbts.test/v1beta1 Boat is deprecated; use deprecated.kbts.test/v1 Boat, which has the same fields and a few more things you will want"
// +kubebuilder:object:root=true
// Boat is a test kind.
export interface Boat {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: BoatSpec;
}
