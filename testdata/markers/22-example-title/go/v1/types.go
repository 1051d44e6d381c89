package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Shape has a title of its own.
// +kubebuilder:title="A shape"
type Shape struct {
	// +optional
	Sides int32 `json:"sides,omitempty"`
}

type SketchSpec struct {
	// color shows an example.
	// +kubebuilder:example=teal
	// +kubebuilder:title=Colour
	// +optional
	Color string `json:"color,omitempty"`
	// width shows a numeric example.
	// +kubebuilder:example=12
	// +optional
	Width int32 `json:"width,omitempty"`
	// shape shows an object example and inherits the type title.
	// +kubebuilder:example={sides: 4}
	// +optional
	Shape Shape `json:"shape,omitempty"`
}

// +kubebuilder:object:root=true

// Sketch is a test kind.
type Sketch struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec SketchSpec `json:"spec,omitempty"`
}
