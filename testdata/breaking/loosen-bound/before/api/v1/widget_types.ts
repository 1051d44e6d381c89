import type { int32, ObjectMeta } from "@kbts/runtime";

export interface WidgetSpec {
  // +optional
  // +kubebuilder:validation:Minimum=2
  // +kubebuilder:validation:Maximum=5
  replicas?: int32;
  // +optional
  // +kubebuilder:validation:MaxLength=8
  // +kubebuilder:validation:Pattern=`^[a-z]+$`
  name?: string;
  // +optional
  // +kubebuilder:validation:MinItems=2
  hosts?: string[];
}

// +kubebuilder:object:root=true
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
