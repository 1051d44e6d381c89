import type { ObjectMeta } from "@kbts/runtime";

export interface WidgetSpec {
  size: number;
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: WidgetSpec;
  status?: { ready?: boolean };
}
