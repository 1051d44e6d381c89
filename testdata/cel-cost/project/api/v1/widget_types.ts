import type { ObjectMeta } from "@kbts/runtime";

export interface WidgetSpec {
  // names: at most 100, but of any length: the regex runs over up to 3 MiB each.
  // +kubebuilder:validation:MaxItems=100
  // +kubebuilder:validation:XValidation:rule="self.all(x, x.matches('^[a-z]+$'))",message="names are lower case"
  names: string[];
  // owner is bounded, so its rule is cheap.
  // +kubebuilder:validation:MaxLength=64
  // +kubebuilder:validation:XValidation:rule="self.matches('^[a-z]+$')",message="lower case"
  owner: string;
}

// +kubebuilder:object:root=true
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: WidgetSpec;
}
