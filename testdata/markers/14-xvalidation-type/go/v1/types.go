package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// WindowSpec is a time window.
// +kubebuilder:validation:XValidation:rule="self.start < self.end",message="start must be before end",fieldPath=".start",reason=FieldValueInvalid
// +kubebuilder:validation:XValidation:rule="!has(self.label) || self.label.size() <= 10",message="label too long"
type WindowSpec struct {
	Start int32 `json:"start"`
	End   int32 `json:"end"`
	// +optional
	Label string `json:"label,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:validation:XValidation:rule="self.metadata.name.startsWith('w-')",message="name must start with w-"

// Window is a test kind with a root-level rule.
type Window struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// spec carries a field-level rule as well.
	// +kubebuilder:validation:XValidation:rule="self.end - self.start <= 100",message="window too wide"
	Spec WindowSpec `json:"spec"`
}
