import type { ObjectMeta } from "@kbts/runtime";

export interface ProbeSpec {
  // +kubebuilder:validation:MaxLength=5
  // +kubebuilder:validation:MaxLength=9
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
