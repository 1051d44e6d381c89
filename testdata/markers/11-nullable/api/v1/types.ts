import type { ObjectMeta } from "@kbts/runtime";

export interface Inner {
  // +optional
  value?: string;
}

export interface HoleSpec {
  // note may be null, by marker.
  // +nullable
  // +optional
  note?: string;
  // inner may be null, by its type.
  // +nullable
  // +optional
  inner?: Inner | null;
  // items may be null.
  // +nullable
  // +optional
  items?: string[] | null;
}

// +kubebuilder:object:root=true
// Hole is a test kind.
export interface Hole {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: HoleSpec;
}
