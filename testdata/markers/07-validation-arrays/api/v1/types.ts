import type { int32, ObjectMeta } from "@kbts/runtime";

export interface BagSpec {
  // tags has between one and five entries.
  // +kubebuilder:validation:MinItems=1
  // +kubebuilder:validation:MaxItems=5
  // +listType=set
  tags: string[];
  // sizes is a plain list of numbers.
  // +optional
  sizes?: int32[];
  // matrix is a list of lists.
  // +optional
  matrix?: string[][];
}

// +kubebuilder:object:root=true
// Bag is a test kind.
export interface Bag {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: BagSpec;
}
