import type { ListMeta, ObjectMeta } from "@kbts/runtime";

// WidgetSpec defines the desired state of Widget.
export interface WidgetSpec {
  // foo is an example field of Widget.
  // +optional
  foo?: string;
}

// WidgetStatus defines the observed state of Widget.
export interface WidgetStatus {
  // ready is true once the widget works.
  // +optional
  ready?: boolean;
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// Widget is the Schema for the widgets API.
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // spec defines the desired state of Widget
  // +required
  spec: WidgetSpec;
  // status defines the observed state of Widget
  // +optional
  status?: WidgetStatus;
}

// +kubebuilder:object:root=true
// WidgetList contains a list of Widget.
export interface WidgetList {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMeta;
  items: Widget[];
}
