import type { ObjectMeta } from "@kbts/runtime";

export interface TagSpec {
  // label is required anyway: controller-gen reads "+k8s:optional # later" as an unknown marker.
  // +k8s:optional # later
  label: string;
}

// +kubebuilder:object:root=true
// Tag is a test kind.
export interface Tag {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: TagSpec;
}
