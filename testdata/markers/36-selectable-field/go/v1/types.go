package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type PebbleSpec struct {
	// +optional
	Size int32 `json:"size,omitempty"`
	// +optional
	Color string `json:"color,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:selectablefield:JSONPath=`.spec.color`
// +kubebuilder:selectablefield:JSONPath=".spec.size"

// Pebble is a test kind.
type Pebble struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec PebbleSpec `json:"spec,omitempty"`
}
