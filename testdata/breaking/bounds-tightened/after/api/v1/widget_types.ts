import type { int32, ObjectMeta } from "@kbts/runtime";

export interface WidgetSpec {
  // +optional
  // +kubebuilder:validation:Minimum=2
  // +kubebuilder:validation:Maximum=5
  replicas?: int32;
  // +optional
  // +kubebuilder:validation:Minimum=0
  // +kubebuilder:validation:Maximum=100
  // +kubebuilder:validation:ExclusiveMinimum=true
  // +kubebuilder:validation:ExclusiveMaximum=true
  // +kubebuilder:validation:MultipleOf=5
  percent?: int32;
  // +optional
  // +kubebuilder:validation:MinLength=1
  // +kubebuilder:validation:MaxLength=32
  name?: string;
  // +optional
  // +kubebuilder:validation:MinItems=1
  // +kubebuilder:validation:MaxItems=4
  hosts?: string[];
  // +optional
  // +kubebuilder:validation:MinProperties=1
  // +kubebuilder:validation:MaxProperties=2
  labels?: Record<string, string>;
}

// +kubebuilder:object:root=true
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
