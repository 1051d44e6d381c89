import type { int32, ObjectMeta } from "@kbts/runtime";

export interface RangeSpec {
  // low must stay below high.
  // +kubebuilder:validation:XValidation:rule="self >= 0",message="low must not be negative"
  low: int32;
  // high is checked with a message expression.
  // +kubebuilder:validation:XValidation:rule="self <= 1000",messageExpression="'high is ' + (self > 5000 ? 'far' : 'just') + ' above 1000'",reason=FieldValueInvalid
  high: int32;
  // name cannot change once set.
  // +kubebuilder:validation:XValidation:rule="self == oldSelf",message="name is immutable",reason=FieldValueForbidden
  // +kubebuilder:validation:XValidation:rule="self.size() > 0",message="name is empty",reason=FieldValueRequired
  name: string;
  // owner is checked against its old value, even when it was unset.
  // +kubebuilder:validation:XValidation:rule="!oldSelf.hasValue() || oldSelf.value() == self",message="owner cannot change",optionalOldSelf=true
  // +optional
  owner?: string;
}

// +kubebuilder:object:root=true
// Range is a test kind.
export interface Range {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: RangeSpec;
}
