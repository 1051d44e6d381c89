package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Limits must name at least one limit.
// +kubebuilder:validation:MinProperties=1
type Limits struct {
	// +optional
	CPU string `json:"cpu,omitempty"`
	// +optional
	Memory string `json:"memory,omitempty"`
}

type QuotaSpec struct {
	// labels holds one to three entries.
	// +kubebuilder:validation:MinProperties=1
	// +kubebuilder:validation:MaxProperties=3
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// limits is a struct with a type-level MinProperties.
	// +optional
	Limits *Limits `json:"limits,omitempty"`
}

// +kubebuilder:object:root=true

// Quota is a test kind.
type Quota struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec QuotaSpec `json:"spec,omitempty"`
}
