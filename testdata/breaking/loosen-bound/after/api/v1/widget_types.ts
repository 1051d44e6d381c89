import type { int32, ObjectMeta } from "@kbts/runtime";

export interface WidgetSpec {
  // +optional
  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:validation:Maximum=10
  replicas?: int32;
  // +optional
  // +kubebuilder:validation:MaxLength=63
  name?: string;
  // +optional
  hosts?: string[];
}

// +kubebuilder:object:root=true
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
