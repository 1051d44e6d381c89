import type { int32, ObjectMeta } from "@kbts/runtime";

// Position is shared by both kinds.
export interface Position {
  row: int32;
  // +optional
  column?: int32;
}

export interface AppleSpec {
  // +optional
  variety?: string;
  // +optional
  position?: Position;
}

// +kubebuilder:object:root=true
// Apple is namespaced.
export interface Apple {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: AppleSpec;
}

export interface OrchardSpec {
  // +optional
  positions?: Position[];
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster
// Orchard is cluster scoped.
export interface Orchard {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: OrchardSpec;
}
