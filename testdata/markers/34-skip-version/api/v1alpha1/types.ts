import type { ObjectMeta } from "@kbts/runtime";

export interface CanoeSpec {
  // fieldv1alpha1 exists only in v1alpha1.
  // +optional
  fieldv1alpha1?: string;
}

// +kubebuilder:skipversion
// +kubebuilder:object:root=true
// Canoe is a test kind.
export interface Canoe {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: CanoeSpec;
}
