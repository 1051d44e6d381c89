import type { int32, ObjectMeta } from "@kbts/runtime";

export interface Port {
  // +optional
  port?: int32;
  // +optional
  name?: string;
}

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
