import type { ObjectMeta } from "@kbts/runtime";

export interface SetSpec {
  // members must be unique. The API server refuses uniqueItems=true (quadratic cost), exactly as it
  // does for controller-gen's output; listType=set is the supported way.
  // +kubebuilder:validation:UniqueItems=true
  // +optional
  members?: string[];
  // pairs are lists whose items must be unique.
  // +kubebuilder:validation:items:UniqueItems=true
  // +optional
  pairs?: string[][];
}

// +kubebuilder:object:root=true
// Set is a test kind.
export interface Set {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: SetSpec;
}
