package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Blob is stored as a string whatever its TS shape.
// +kubebuilder:validation:Type=string
// +kubebuilder:validation:Format=byte
type Blob string

type CarrierSpec struct {
	// payload uses a type-level Type marker.
	// +optional
	Payload Blob `json:"payload,omitempty"`
	// stamp overrides its field type to string.
	// +kubebuilder:validation:Type=string
	// +optional
	Stamp string `json:"stamp,omitempty"`
}

// +kubebuilder:object:root=true

// Carrier is a test kind.
type Carrier struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec CarrierSpec `json:"spec,omitempty"`
}
