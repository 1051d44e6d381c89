package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Threshold is a named int with its own bound.
// +kubebuilder:validation:Minimum=1
type Threshold int

type CounterSpec struct {
	// step is Go's int: an integer without a format.
	// +kubebuilder:validation:Minimum=-2
	// +kubebuilder:validation:Maximum=2
	// +kubebuilder:validation:MultipleOf=2
	Step int `json:"step"`
	// limit is Go's uint.
	// +optional
	Limit uint `json:"limit,omitempty"`
	// levels are ints from a fixed set.
	// +kubebuilder:validation:items:Enum=0;1;3
	// +optional
	Levels []int `json:"levels,omitempty"`
	// byName maps names to ints.
	// +optional
	ByName map[string]int `json:"byName,omitempty"`
	// +optional
	Threshold Threshold `json:"threshold,omitempty"`
}

// +kubebuilder:object:root=true
// Counter is a test kind.
type Counter struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec CounterSpec `json:"spec,omitempty"`
}
