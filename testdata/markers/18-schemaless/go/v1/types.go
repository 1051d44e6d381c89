package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type BoxSpec struct {
	// config is not introspected at all.
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	// +optional
	Config runtime.RawExtension `json:"config,omitempty"`
	// raw is a schemaless string.
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Type=string
	// +optional
	Raw string `json:"raw,omitempty"`
}

// +kubebuilder:object:root=true

// Box is a test kind.
type Box struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec BoxSpec `json:"spec,omitempty"`
}
