import type { ObjectMeta } from "@kbts/runtime";

// Extras keeps fields it does not declare.
// +kubebuilder:pruning:PreserveUnknownFields
export interface Extras {
  // +optional
  known?: string;
}

export interface BucketSpec {
  // extras uses a type-level marker.
  // +optional
  extras?: Extras;
  // settings uses the field marker on a map.
  // +kubebuilder:pruning:PreserveUnknownFields
  // +optional
  settings?: Record<string, string>;
  // legacy uses the deprecated alias.
  // +kubebuilder:validation:XPreserveUnknownFields
  // +optional
  legacy?: Extras;
}

// +kubebuilder:object:root=true
// Bucket is a test kind.
export interface Bucket {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: BucketSpec;
}
