import type { int32, int64, ObjectMeta } from "@kbts/runtime";

export interface GaugeSpec {
  // replicas is bounded on both sides.
  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:validation:Maximum=10
  replicas: int32;
  // port excludes its bounds.
  // +kubebuilder:validation:Minimum=0
  // +kubebuilder:validation:Maximum=65536
  // +kubebuilder:validation:ExclusiveMinimum=true
  // +kubebuilder:validation:ExclusiveMaximum=true
  // +optional
  port?: int32;
  // step is a multiple of five.
  // +kubebuilder:validation:MultipleOf=5
  // +optional
  step?: int64;
  // offset may be negative.
  // +kubebuilder:validation:Minimum=-100
  // +optional
  offset?: int64;
}

// +kubebuilder:object:root=true
// Gauge is a test kind.
export interface Gauge {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: GaugeSpec;
}
