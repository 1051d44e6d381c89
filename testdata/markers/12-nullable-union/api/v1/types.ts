import type { int32, ObjectMeta } from "@kbts/runtime";

export interface HoleSpec {
  // note may be null.
  // +optional
  note?: string | null;
  // count may be null.
  count: int32 | null;
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
