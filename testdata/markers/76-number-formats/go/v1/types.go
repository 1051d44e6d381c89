package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type MeterSpec struct {
	// +kubebuilder:validation:Maximum=1000000
	// +optional
	Million int32 `json:"million,omitempty"`
	// +kubebuilder:validation:Minimum=-2147483648
	// +kubebuilder:validation:Maximum=2147483647
	// +optional
	Full int32 `json:"full,omitempty"`
	// +kubebuilder:validation:Maximum=9007199254740991
	// +optional
	Safe int64 `json:"safe,omitempty"`
	// +kubebuilder:validation:MultipleOf=100000000
	// +optional
	HundredMillions int64 `json:"hundredMillions,omitempty"`
	// +kubebuilder:default=123456789
	// +optional
	Defaulted int64 `json:"defaulted,omitempty"`
	// +kubebuilder:default=-5
	// +optional
	Negative int32 `json:"negative,omitempty"`
	// +kubebuilder:validation:Enum=100000;2000000;30000000
	// +optional
	Steps int64 `json:"steps,omitempty"`
	// +kubebuilder:example=10000000
	// +optional
	Sample int64 `json:"sample,omitempty"`
}

// +kubebuilder:object:root=true

// Meter is a test kind.
type Meter struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec MeterSpec `json:"spec,omitempty"`
}
