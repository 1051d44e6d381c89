package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type CarrierSpec struct {
	// payload: +kubebuilder:validation:nullable is no marker (controller-gen ignores it); +nullable is.
	// +kubebuilder:validation:EmbeddedResource
	// +kubebuilder:validation:nullable
	Payload runtime.RawExtension `json:"payload"`
	// note: +kubebuilder:validation:optional is no marker either (the marker is Optional).
	// +kubebuilder:validation:optional
	// +optional
	Note string `json:"note,omitempty"`
}

// +kubebuilder:object:root=true
// Carrier is a test kind.
type Carrier struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec CarrierSpec `json:"spec,omitempty"`
}
