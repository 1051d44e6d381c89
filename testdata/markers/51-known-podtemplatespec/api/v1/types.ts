import type { ObjectMeta, PodTemplateSpec } from "@kbts/runtime";

export interface BatchSpec {
  // template describes the pods to run.
  template: PodTemplateSpec;
}

// +kubebuilder:object:root=true
// Batch is a test kind.
export interface Batch {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: BatchSpec;
}
