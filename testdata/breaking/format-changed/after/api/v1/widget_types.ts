import type { int32, ObjectMeta } from "@kbts/runtime";

export interface WidgetSpec {
  // +optional
  // +kubebuilder:validation:Format=uri
  endpoint?: string;
  // +optional
  // +kubebuilder:validation:Format=ipv4
  host?: string;
}

// +kubebuilder:object:root=true
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
