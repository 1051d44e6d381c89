import type { ObjectMeta } from "@kbts/runtime";

export interface ProbeSpec {
  // fieldv2beta1 exists only in v2beta1.
  // +optional
  fieldv2beta1?: string;
}

// +kubebuilder:resource:categories=probes
// +kubebuilder:printcolumn:name="V2",type=string,JSONPath=`.spec.fieldv2beta1`
// +kubebuilder:selectablefield:JSONPath=`.spec.fieldv2beta1`
// +kubebuilder:object:root=true
// Probe is a test kind.
export interface Probe {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: ProbeSpec;
}
