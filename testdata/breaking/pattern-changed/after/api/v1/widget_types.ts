import type { int32, ObjectMeta } from "@kbts/runtime";

export interface WidgetSpec {
  // +optional
  // +kubebuilder:validation:Pattern=`^[a-z]{1,8}$`
  name?: string;
  // +optional
  // +kubebuilder:validation:Pattern=`^[a-z]+-[0-9]$`
  zone?: string;
}

// +kubebuilder:object:root=true
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
