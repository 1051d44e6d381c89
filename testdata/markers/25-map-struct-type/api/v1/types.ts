import type { ObjectMeta } from "@kbts/runtime";

// Coordinates is replaced as a whole.
// +structType=atomic
export interface Coordinates {
  // +optional
  lat?: string;
  // +optional
  lng?: string;
}

export interface AtlasSpec {
  // labels merge key by key.
  // +mapType=granular
  // +optional
  labels?: Record<string, string>;
  // selector is replaced as a whole.
  // +mapType=atomic
  // +optional
  selector?: Record<string, string>;
  // origin uses a type-level structType.
  // +optional
  origin?: Coordinates;
  // target uses a field-level structType.
  // +structType=granular
  // +optional
  target?: Coordinates;
}

// +kubebuilder:object:root=true
// Atlas is a test kind.
export interface Atlas {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: AtlasSpec;
}
