import type { int32, ObjectMeta } from "@kbts/runtime";

export interface Selector {
  // +optional
  app?: string;
}

export interface WidgetSpec {
  // +optional
  selector?: Selector;
}

// +kubebuilder:object:root=true
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
