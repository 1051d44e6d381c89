import type { IntOrString, ObjectMeta } from "@kbts/runtime";

export interface RolloutSpec {
  // maxSurge is a number or a percentage.
  // +optional
  maxSurge?: IntOrString;
  // maxUnavailable is limited by a pattern.
  // +kubebuilder:validation:XIntOrString
  // +kubebuilder:validation:Pattern=`^(\d+|\d+%)$`
  // +kubebuilder:validation:MaxLength=5
  // +optional
  maxUnavailable?: IntOrString;
}

// +kubebuilder:object:root=true
// Rollout is a test kind.
export interface Rollout {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: RolloutSpec;
}
