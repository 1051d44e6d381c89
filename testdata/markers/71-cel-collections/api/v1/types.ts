import type { int32, ObjectMeta } from "@kbts/runtime";

export interface Rule {
  // +kubebuilder:validation:MaxLength=32
  name: string;
  // +kubebuilder:validation:Maximum=100
  weight: int32;
}

// RulebookSpec uses CEL over lists and maps, bounded so the API server can cost the rules.
// +kubebuilder:validation:XValidation:rule="self.rules.all(r, r.weight <= self.maxWeight)",message="a rule is heavier than maxWeight"
// +kubebuilder:validation:XValidation:rule="!has(self.labels) || self.labels.all(k, k.startsWith('rb-'))",message="label keys start with rb-"
export interface RulebookSpec {
  // +kubebuilder:validation:Maximum=100
  maxWeight: int32;
  // rules must have unique names.
  // +kubebuilder:validation:MaxItems=16
  // +kubebuilder:validation:XValidation:rule="self.all(x, self.exists_one(y, y.name == x.name))",message="rule names must be unique"
  rules: Rule[];
  // +kubebuilder:validation:MaxProperties=8
  // +optional
  labels?: Record<string, string>;
}

// +kubebuilder:object:root=true
// Rulebook is a test kind.
export interface Rulebook {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: RulebookSpec;
}
