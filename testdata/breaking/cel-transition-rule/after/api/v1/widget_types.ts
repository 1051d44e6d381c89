import type { int32, ObjectMeta } from "@kbts/runtime";

// +kubebuilder:validation:XValidation:rule="!has(oldSelf.name) || has(self.name)",message="name may not be unset"
export interface WidgetSpec {
  // +optional
  // +kubebuilder:validation:XValidation:rule="self >= oldSelf",message="size may only grow"
  size?: int32;
  // +optional
  name?: string;
}

// +kubebuilder:object:root=true
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
