import type { int32, int64, ObjectMeta } from "@kbts/runtime";

export interface MeterSpec {
  // +kubebuilder:validation:Maximum=1000000
  // +optional
  million?: int32;
  // +kubebuilder:validation:Minimum=-2147483648
  // +kubebuilder:validation:Maximum=2147483647
  // +optional
  full?: int32;
  // +kubebuilder:validation:Maximum=9007199254740991
  // +optional
  safe?: int64;
  // +kubebuilder:validation:MultipleOf=100000000
  // +optional
  hundredMillions?: int64;
  // +kubebuilder:default=123456789
  // +optional
  defaulted?: int64;
  // +kubebuilder:default=-5
  // +optional
  negative?: int32;
  // +kubebuilder:validation:Enum=100000;2000000;30000000
  // +optional
  steps?: int64;
  // +kubebuilder:example=10000000
  // +optional
  sample?: int64;
}

// +kubebuilder:object:root=true
// Meter is a test kind.
export interface Meter {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: MeterSpec;
}
