import type { ObjectMeta } from "@kbts/runtime";

export interface ProbeSpec {
  // +kubebuilder:validation:MinLength=10
  // +kubebuilder:validation:MaxLength=5
  // +optional
  f?: string;
}

// +kubebuilder:object:root=true
export interface Probe {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: ProbeSpec;
}
