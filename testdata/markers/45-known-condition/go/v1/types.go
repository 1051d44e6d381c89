package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type LampStatus struct {
	// conditions represent the current state of the Lamp resource.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// last is the most recent condition on its own.
	// +optional
	Last *metav1.Condition `json:"last,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Lamp is a test kind with conditions.
type Lamp struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Status LampStatus `json:"status,omitempty"`
}
