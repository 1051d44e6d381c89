import type { ObjectMeta, RawExtension } from "@kbts/runtime";

export interface CarrierSpec {
  // payload: +kubebuilder:validation:nullable is no marker (controller-gen ignores it); +nullable is.
  // +kubebuilder:validation:EmbeddedResource
  // +kubebuilder:validation:nullable
  payload: RawExtension;
  // note: +kubebuilder:validation:optional is no marker either (the marker is Optional).
  // +kubebuilder:validation:optional
  // +optional
  note?: string;
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
