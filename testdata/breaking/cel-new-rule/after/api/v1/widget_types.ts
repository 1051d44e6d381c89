import type { int32, ObjectMeta } from "@kbts/runtime";

export interface Port {
  // +optional
  // +kubebuilder:validation:XValidation:rule="self > 1024",message="unprivileged ports only"
  port?: int32;
  // +optional
  name?: string;
}

// +kubebuilder:validation:XValidation:rule="!has(self.min) || !has(self.max) || self.min <= self.max",message="min must not exceed max"
export interface WidgetSpec {
  // +optional
  min?: int32;
  // +optional
  max?: int32;
  // +optional
  ports?: Port[];
}

// +kubebuilder:object:root=true
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
