import type { float32, float64, ObjectMeta } from "@kbts/runtime";

export interface ScaleSpec {
  // ratio is a float64.
  // +kubebuilder:validation:Minimum=0.5
  // +kubebuilder:validation:Maximum=2.5
  ratio: float64;
  // weight is a plain number, also a float64.
  // +optional
  weight?: number;
  // factor is a float32.
  // +optional
  factor?: float32;
  // samples is a list of floats.
  // +optional
  samples?: float64[];
}

// +kubebuilder:object:root=true
// Scale is a test kind.
export interface Scale {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: ScaleSpec;
}
