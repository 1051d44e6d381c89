import type { ObjectMeta } from "@kbts/runtime";

// Blob is stored as a string whatever its TS shape.
// +kubebuilder:validation:Type=string
// +kubebuilder:validation:Format=byte
export type Blob = string;

export interface CarrierSpec {
  // payload uses a type-level Type marker.
  // +optional
  payload?: Blob;
  // stamp overrides its field type to string.
  // +kubebuilder:validation:Type=string
  // +optional
  stamp?: string;
}

// +kubebuilder:object:root=true
// Carrier is a test kind.
export interface Carrier {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: CarrierSpec;
}
