import type { int32, ObjectMeta } from "@kbts/runtime";

export interface PebbleSpec {
  // +optional
  size?: int32;
  // +optional
  color?: string;
}

// +kubebuilder:selectablefield:JSONPath=`.spec.color`
// +kubebuilder:selectablefield:JSONPath=".spec.size"
// +kubebuilder:object:root=true
// Pebble is a test kind.
export interface Pebble {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: PebbleSpec;
}
