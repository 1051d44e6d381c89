package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type GliderSpec struct {
	// +optional
	Span int32 `json:"span,omitempty"`
}

// +kubebuilder:object:root=true

// Glider is a test kind.
type Glider struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec GliderSpec `json:"spec,omitempty"`
}
