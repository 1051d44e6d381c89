package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type LooseSpec struct {
	// name has no question mark, but the package makes every field optional.
	Name string `json:"name"`
	// count is required explicitly.
	// +kubebuilder:validation:Required
	Count string `json:"count"`
}

// +kubebuilder:object:root=true

// Loose is a test kind.
type Loose struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec LooseSpec `json:"spec,omitempty"`
}
