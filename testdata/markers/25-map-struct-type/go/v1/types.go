package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Coordinates is replaced as a whole.
// +structType=atomic
type Coordinates struct {
	// +optional
	Lat string `json:"lat,omitempty"`
	// +optional
	Lng string `json:"lng,omitempty"`
}

type AtlasSpec struct {
	// labels merge key by key.
	// +mapType=granular
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// selector is replaced as a whole.
	// +mapType=atomic
	// +optional
	Selector map[string]string `json:"selector,omitempty"`
	// origin uses a type-level structType.
	// +optional
	Origin Coordinates `json:"origin,omitempty"`
	// target uses a field-level structType.
	// +structType=granular
	// +optional
	Target Coordinates `json:"target,omitempty"`
}

// +kubebuilder:object:root=true

// Atlas is a test kind.
type Atlas struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec AtlasSpec `json:"spec,omitempty"`
}
