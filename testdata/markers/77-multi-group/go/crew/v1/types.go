package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type SailorSpec struct {
	// +optional
	Rank string `json:"rank,omitempty"`
}

// +kubebuilder:object:root=true

// Sailor is a test kind.
type Sailor struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec SailorSpec `json:"spec,omitempty"`
}
