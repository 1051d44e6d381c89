import type { int32, ObjectMeta } from "@kbts/runtime";

// GadgetSpec defines the desired state of Gadget.
export interface GadgetSpec {
  // size is how big the gadget is.
  // +kubebuilder:validation:Minimum=1
  size: int32;
}

// Gadget has no root marker.
export interface Gadget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: GadgetSpec;
}

// GadgetTemplate has metadata but no TypeMeta: not a kind.
export interface GadgetTemplate {
  metadata?: ObjectMeta;
  // +optional
  spec?: GadgetSpec;
}
