import type { ObjectMeta } from "@kbts/runtime";

export interface ProbeSpec {
  // fieldv1 exists only in v1.
  // +optional
  fieldv1?: string;
}

// +kubebuilder:storageversion
// +kubebuilder:resource:shortName=pr
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="V1",type=string,JSONPath=`.spec.fieldv1`
// +kubebuilder:object:root=true
// Probe is a test kind.
export interface Probe {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: ProbeSpec;
}
