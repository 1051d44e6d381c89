package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type ScaleSpec struct {
	// ratio is a float64.
	// +kubebuilder:validation:Minimum=0.5
	// +kubebuilder:validation:Maximum=2.5
	Ratio float64 `json:"ratio"`
	// weight is a plain number, also a float64.
	// +optional
	Weight float64 `json:"weight,omitempty"`
	// factor is a float32.
	// +optional
	Factor float32 `json:"factor,omitempty"`
	// samples is a list of floats.
	// +optional
	Samples []float64 `json:"samples,omitempty"`
}

// +kubebuilder:object:root=true

// Scale is a test kind.
type Scale struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec ScaleSpec `json:"spec,omitempty"`
}
