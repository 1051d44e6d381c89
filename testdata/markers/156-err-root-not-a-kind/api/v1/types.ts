import type { int32, ListMeta, ObjectMeta } from "@kbts/runtime";

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// WidgetSpec is the spec: the root marker above meant Widget.
export interface WidgetSpec {
  // +optional
  size?: int32;
}

// Widget is the kind, without a root marker.
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: WidgetSpec;
}

// +kubebuilder:object:root=true

// WidgetList is a List: its root marker is right.
export interface WidgetList {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMeta;
  items: Widget[];
}
