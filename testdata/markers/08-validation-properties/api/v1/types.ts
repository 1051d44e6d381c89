import type { ObjectMeta } from "@kbts/runtime";

// Limits must name at least one limit.
// +kubebuilder:validation:MinProperties=1
export interface Limits {
  // +optional
  cpu?: string;
  // +optional
  memory?: string;
}

export interface QuotaSpec {
  // labels holds one to three entries.
  // +kubebuilder:validation:MinProperties=1
  // +kubebuilder:validation:MaxProperties=3
  // +optional
  labels?: Record<string, string>;
  // limits is a struct with a type-level MinProperties.
  // +optional
  limits?: Limits;
}

// +kubebuilder:object:root=true
// Quota is a test kind.
export interface Quota {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: QuotaSpec;
}
