package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type BagSpec struct {
	// tags has between one and five entries.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=5
	// +listType=set
	Tags []string `json:"tags"`
	// sizes is a plain list of numbers.
	// +optional
	Sizes []int32 `json:"sizes,omitempty"`
	// matrix is a list of lists.
	// +optional
	Matrix [][]string `json:"matrix,omitempty"`
}

// +kubebuilder:object:root=true

// Bag is a test kind.
type Bag struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec BagSpec `json:"spec,omitempty"`
}
