import type { int32, ObjectMeta } from "@kbts/runtime";

export interface WidgetSpec {
  // +optional
  // +kubebuilder:validation:XValidation:rule="self.startsWith('w-')",message="names start with w-"
  name?: string;
  // +optional
  size?: int32;
}

// +kubebuilder:object:root=true
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
