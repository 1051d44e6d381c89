import type { ObjectMeta } from "@kbts/runtime";

export interface ProbeSpec {
  // fieldv1alpha2 exists only in v1alpha2.
  // +optional
  fieldv1alpha2?: string;
}

// +kubebuilder:unservedversion
// +kubebuilder:deprecatedversion:warning="v1alpha2 is gone"
// +kubebuilder:object:root=true
// Probe is a test kind.
export interface Probe {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: ProbeSpec;
}
