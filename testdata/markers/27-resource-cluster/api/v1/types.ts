import type { int32, ObjectMeta } from "@kbts/runtime";

export interface RegionSpec {
  // +optional
  size?: int32;
  // +optional
  color?: string;
}

// +kubebuilder:resource:scope=Cluster,shortName=rg
// +kubebuilder:object:root=true
// Region is a test kind.
export interface Region {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: RegionSpec;
}
