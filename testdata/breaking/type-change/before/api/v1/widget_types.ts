import type { int32, ObjectMeta } from "@kbts/runtime";

export interface WidgetSpec {
  // +optional
  size?: int32;
  // +optional
  name?: string | null;
}

// +kubebuilder:object:root=true
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
