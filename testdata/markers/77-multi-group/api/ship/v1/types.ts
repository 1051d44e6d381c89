import type { ObjectMeta } from "@kbts/runtime";

export interface HullSpec {
  // +optional
  rank?: string;
}

// +kubebuilder:object:root=true
// Hull is a test kind.
export interface Hull {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: HullSpec;
}
