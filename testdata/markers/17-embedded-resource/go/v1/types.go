package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type WrapperSpec struct {
	// template is a whole Kubernetes object.
	// +kubebuilder:validation:XEmbeddedResource
	// +kubebuilder:pruning:PreserveUnknownFields
	// +optional
	Template runtime.RawExtension `json:"template,omitempty"`
	// other uses the field alias.
	// +kubebuilder:validation:EmbeddedResource
	// +kubebuilder:pruning:PreserveUnknownFields
	// +optional
	Other runtime.RawExtension `json:"other,omitempty"`
}

// +kubebuilder:object:root=true

// Wrapper is a test kind.
type Wrapper struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec WrapperSpec `json:"spec,omitempty"`
}
