import type { ObjectMeta } from "@kbts/runtime";

export interface CanoeSpec {
  // paddles are counted.
  paddles: string;
}

// Canoe is a test kind: +kubebuilder:skip in a type's doc comment is ignored, as by controller-gen.
// +kubebuilder:skip
// +kubebuilder:object:root=true
export interface Canoe {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: CanoeSpec;
}
