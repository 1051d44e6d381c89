package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Inner struct {
	// +optional
	Value string `json:"value,omitempty"`
}

type HoleSpec struct {
	// note may be null, by marker.
	// +nullable
	// +optional
	Note *string `json:"note,omitempty"`
	// inner may be null, by its type.
	// +nullable
	// +optional
	Inner *Inner `json:"inner,omitempty"`
	// items may be null.
	// +nullable
	// +optional
	Items []string `json:"items,omitempty"`
}

// +kubebuilder:object:root=true

// Hole is a test kind.
type Hole struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec HoleSpec `json:"spec,omitempty"`
}
