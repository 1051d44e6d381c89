package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type SetSpec struct {
	// members must be unique. The API server refuses uniqueItems=true (quadratic cost), exactly as it
	// does for controller-gen's output; listType=set is the supported way.
	// +kubebuilder:validation:UniqueItems=true
	// +optional
	Members []string `json:"members,omitempty"`
	// pairs are lists whose items must be unique.
	// +kubebuilder:validation:items:UniqueItems=true
	// +optional
	Pairs [][]string `json:"pairs,omitempty"`
}

// +kubebuilder:object:root=true

// Set is a test kind.
type Set struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec SetSpec `json:"spec,omitempty"`
}
