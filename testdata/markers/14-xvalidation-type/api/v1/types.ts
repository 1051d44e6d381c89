import type { int32, ObjectMeta } from "@kbts/runtime";

// WindowSpec is a time window.
// +kubebuilder:validation:XValidation:rule="self.start < self.end",message="start must be before end",fieldPath=".start",reason=FieldValueInvalid
// +kubebuilder:validation:XValidation:rule="!has(self.label) || self.label.size() <= 10",message="label too long"
export interface WindowSpec {
  start: int32;
  end: int32;
  // +optional
  label?: string;
}

// +kubebuilder:object:root=true
// +kubebuilder:validation:XValidation:rule="self.metadata.name.startsWith('w-')",message="name must start with w-"
// Window is a test kind with a root-level rule.
export interface Window {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // spec carries a field-level rule as well.
  // +kubebuilder:validation:XValidation:rule="self.end - self.start <= 100",message="window too wide"
  spec: WindowSpec;
}
