package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type HullSpec struct {
	// +optional
	Rank string `json:"rank,omitempty"`
}

// +kubebuilder:object:root=true

// Hull is a test kind.
type Hull struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec HullSpec `json:"spec,omitempty"`
}
