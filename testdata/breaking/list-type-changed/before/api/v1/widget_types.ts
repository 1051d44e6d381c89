import type { int32, ObjectMeta } from "@kbts/runtime";

export interface Host {
  name: string;
  // +optional
  zone?: string;
}

export interface WidgetSpec {
  // +optional
  hosts?: Host[];
  // +optional
  // +listType=map
  // +listMapKey=name
  backends?: Host[];
}

// +kubebuilder:object:root=true
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
