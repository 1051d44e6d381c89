import type { int32, ObjectMeta } from "@kbts/runtime";

export interface TileSpec {
  // +optional
  size?: int32;
  // +optional
  color?: string;
}

// +kubebuilder:printcolumn:name="Size",type=integer,JSONPath=`.spec.size`
// +kubebuilder:object:root=true
// Tile is a test kind.
export interface Tile {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: TileSpec;
}
