package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type DialSpec struct {
	// +kubebuilder:validation:Minimum=1e-8
	// +kubebuilder:validation:Maximum=1e-7
	// +optional
	Tiny float64 `json:"tiny,omitempty"`
	// +kubebuilder:validation:MultipleOf=0.01
	// +kubebuilder:default=0.5
	// +optional
	Step float64 `json:"step,omitempty"`
	// +kubebuilder:validation:Maximum=1.5e10
	// +kubebuilder:example=2.25
	// +optional
	Huge float64 `json:"huge,omitempty"`
	// +kubebuilder:validation:Minimum=-0.75
	// +kubebuilder:default=3
	// +optional
	Whole float64 `json:"whole,omitempty"`
}

// +kubebuilder:object:root=true

// Dial is a test kind.
type Dial struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec DialSpec `json:"spec,omitempty"`
}
