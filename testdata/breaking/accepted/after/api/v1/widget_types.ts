import type { int32, ObjectMeta } from "@kbts/runtime";

// +kbts:breaking:accept="legacy was never read by the controller since v0.2"
export interface WidgetSpec {
  // +optional
  // +kubebuilder:validation:Maximum=64
  // +kbts:breaking:accept="no cluster has more than 64: checked in every fleet report"
  size?: int32;
  // +optional
  name?: string;
}

// +kubebuilder:object:root=true
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
