import type { int32, ObjectMeta } from "@kbts/runtime";

export interface GliderSpec {
  // +optional
  span?: int32;
}

// +kubebuilder:object:root=true
// Glider is a test kind.
export interface Glider {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: GliderSpec;
}
