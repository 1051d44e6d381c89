package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type TileSpec struct {
	// +optional
	Size int32 `json:"size,omitempty"`
	// +optional
	Color string `json:"color,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:printcolumn:name="Size",type=integer,JSONPath=`.spec.size`

// Tile is a test kind.
type Tile struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec TileSpec `json:"spec,omitempty"`
}
