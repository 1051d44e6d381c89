import type { int, ObjectMeta, uint } from "@kbts/runtime";

// Threshold is a named int with its own bound.
// +kubebuilder:validation:Minimum=1
export type Threshold = int;

export interface CounterSpec {
  // step is Go's int: an integer without a format.
  // +kubebuilder:validation:Minimum=-2
  // +kubebuilder:validation:Maximum=2
  // +kubebuilder:validation:MultipleOf=2
  step: int;
  // limit is Go's uint.
  // +optional
  limit?: uint;
  // levels are ints from a fixed set.
  // +kubebuilder:validation:items:Enum=0;1;3
  // +optional
  levels?: int[];
  // byName maps names to ints.
  // +optional
  byName?: Record<string, int>;
  // +optional
  threshold?: Threshold;
}

// +kubebuilder:object:root=true
// Counter is a test kind.
export interface Counter {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: CounterSpec;
}
