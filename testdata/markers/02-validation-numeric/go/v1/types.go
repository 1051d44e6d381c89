package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type GaugeSpec struct {
	// replicas is bounded on both sides.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	Replicas int32 `json:"replicas"`
	// port excludes its bounds.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=65536
	// +kubebuilder:validation:ExclusiveMinimum=true
	// +kubebuilder:validation:ExclusiveMaximum=true
	// +optional
	Port int32 `json:"port,omitempty"`
	// step is a multiple of five.
	// +kubebuilder:validation:MultipleOf=5
	// +optional
	Step int64 `json:"step,omitempty"`
	// offset may be negative.
	// +kubebuilder:validation:Minimum=-100
	// +optional
	Offset int64 `json:"offset,omitempty"`
}

// +kubebuilder:object:root=true

// Gauge is a test kind.
type Gauge struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec GaugeSpec `json:"spec,omitempty"`
}
