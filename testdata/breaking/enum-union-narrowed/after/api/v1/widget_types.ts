import type { int32, ObjectMeta } from "@kbts/runtime";

export interface WidgetSpec {
  // +optional
  tier?: "small" | "medium";
}

// +kubebuilder:object:root=true
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
