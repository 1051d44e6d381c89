import type { int32, ObjectMeta } from "@kbts/runtime";

export interface Host {
  name: string;
  zone: string;
}

export interface WidgetSpec {
  // +optional
  // +listType=map
  // +listMapKey=name
  hosts?: Host[];
  // +optional
  // +listType=map
  // +listMapKey=name
  // +listMapKey=zone
  backends?: Host[];
}

// +kubebuilder:object:root=true
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
