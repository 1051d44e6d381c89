import type { ObjectMeta } from "@kbts/runtime";

export interface ProbeSpec {
  // +kubebuilder:validation:Pattern=`(?=a)b`
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
