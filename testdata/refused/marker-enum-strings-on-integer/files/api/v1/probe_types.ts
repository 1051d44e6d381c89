import type { int32, ObjectMeta } from "@kbts/runtime";

export interface ProbeSpec {
  // +kubebuilder:validation:Enum=a;b
  // +optional
  f?: int32;
}

// +kubebuilder:object:root=true
export interface Probe {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: ProbeSpec;
}
