import type { ObjectMeta } from "@kbts/runtime";

export interface LooseSpec {
  // name has no question mark, but the package makes every field optional.
  name: string;
  // count is required explicitly.
  // +kubebuilder:validation:Required
  count: string;
}

// +kubebuilder:object:root=true
// Loose is a test kind.
export interface Loose {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: LooseSpec;
}
