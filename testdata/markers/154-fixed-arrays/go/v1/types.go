package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

const squareSides = 4

type GridSpec struct {
	// origin is a fixed-size array (Go [3]int): a tuple of one type.
	Origin [3]int `json:"origin"`
	// corners has two names.
	// +kubebuilder:validation:items:MinLength=1
	// +optional
	Corners [2]string `json:"corners,omitempty"`
	// sides has as many entries as a square has sides.
	// +optional
	Sides [squareSides]int32 `json:"sides,omitempty"`
}

// +kubebuilder:object:root=true
// Grid is a test kind.
type Grid struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec GridSpec `json:"spec,omitempty"`
}
