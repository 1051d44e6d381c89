import type { float64, ObjectMeta } from "@kbts/runtime";

export interface DialSpec {
  // +kubebuilder:validation:Minimum=1e-8
  // +kubebuilder:validation:Maximum=1e-7
  // +optional
  tiny?: float64;
  // +kubebuilder:validation:MultipleOf=0.01
  // +kubebuilder:default=0.5
  // +optional
  step?: float64;
  // +kubebuilder:validation:Maximum=1.5e10
  // +kubebuilder:example=2.25
  // +optional
  huge?: float64;
  // +kubebuilder:validation:Minimum=-0.75
  // +kubebuilder:default=3
  // +optional
  whole?: float64;
}

// +kubebuilder:object:root=true
// Dial is a test kind.
export interface Dial {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: DialSpec;
}
