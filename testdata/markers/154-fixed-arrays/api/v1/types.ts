import type { int, int32, ObjectMeta } from "@kbts/runtime";

export interface GridSpec {
  // origin is a fixed-size array (Go [3]int): a tuple of one type.
  origin: [int, int, int];
  // corners has two names.
  // +kubebuilder:validation:items:MinLength=1
  // +optional
  corners?: [string, string];
  // sides has as many entries as a square has sides.
  // +optional
  sides?: readonly [int32, int32, int32, int32];
}

// +kubebuilder:object:root=true
// Grid is a test kind.
export interface Grid {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: GridSpec;
}
