package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type RangeSpec struct {
	// low must stay below high.
	// +kubebuilder:validation:XValidation:rule="self >= 0",message="low must not be negative"
	Low int32 `json:"low"`
	// high is checked with a message expression.
	// +kubebuilder:validation:XValidation:rule="self <= 1000",messageExpression="'high is ' + (self > 5000 ? 'far' : 'just') + ' above 1000'",reason=FieldValueInvalid
	High int32 `json:"high"`
	// name cannot change once set.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="name is immutable",reason=FieldValueForbidden
	// +kubebuilder:validation:XValidation:rule="self.size() > 0",message="name is empty",reason=FieldValueRequired
	Name string `json:"name"`
	// owner is checked against its old value, even when it was unset.
	// +kubebuilder:validation:XValidation:rule="!oldSelf.hasValue() || oldSelf.value() == self",message="owner cannot change",optionalOldSelf=true
	// +optional
	Owner string `json:"owner,omitempty"`
}

// +kubebuilder:object:root=true

// Range is a test kind.
type Range struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec RangeSpec `json:"spec,omitempty"`
}
