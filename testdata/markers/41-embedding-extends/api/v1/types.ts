import type { int32, ObjectMeta } from "@kbts/runtime";

// Named carries a name.
export interface Named {
  // name is inherited.
  name: string;
  // +optional
  alias?: string;
}

// Sized carries a size.
// +kubebuilder:validation:XValidation:rule="!has(self.size) || self.size > 0",message="size must be positive"
export interface Sized {
  // +optional
  size?: int32;
}

// CarSpec merges two embedded types with its own fields.
export interface CarSpec extends Named, Sized {
  // wheels is the car's own field.
  wheels: int32;
}

// +kubebuilder:object:root=true
// Car is a test kind.
export interface Car {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: CarSpec;
}
