import type { int32, ObjectMeta } from "@kbts/runtime";

// CrateSpec has markers between its description lines.
// +kubebuilder:validation:MinProperties=1
// The text goes on after the marker.
export interface CrateSpec {
  // weight is measured in kilograms.
  // +kubebuilder:validation:Minimum=1
  // It is never zero.
  // +optional
  //
  // A paragraph follows a marker and a blank comment line.
  weight?: int32;
}

// Crate is a box.
// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=cr
// Its description continues below the markers.
export interface Crate {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: CrateSpec;
}
