import type { ObjectMeta } from "@kbts/runtime";

export interface ProbeSpec {
  // +kubebuilder:validation:MaxLength=9223372036854775808
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
