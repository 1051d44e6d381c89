import type { int32, ObjectMeta } from "@kbts/runtime";

export interface GadgetSpec {
  // +optional
  size?: int32;
  // +optional
  name?: string;
}

// +kubebuilder:object:root=true
export interface Gadget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: GadgetSpec;
}
