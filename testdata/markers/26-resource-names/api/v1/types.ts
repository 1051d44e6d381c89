import type { int32, ObjectMeta } from "@kbts/runtime";

export interface OctopusSpec {
  // +optional
  size?: int32;
  // +optional
  color?: string;
}

// +kubebuilder:resource:path=octopodes,singular=octo,shortName=oc;octo,categories=sea;all
// +kubebuilder:object:root=true
// Octopus is a test kind.
export interface Octopus {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: OctopusSpec;
}
