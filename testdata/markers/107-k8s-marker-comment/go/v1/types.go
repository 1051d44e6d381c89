package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// A "# comment" after the value of +k8s:maxItems, +k8s:minimum and +k8s:maximum is dropped, as
// gengo's codetags read declarative validation tags (with or without a space before the #).
type ShelfSpec struct {
	// books on the shelf.
	// +k8s:maxItems=3 # never more than three
	Books []string `json:"books"`
	// height in centimetres.
	// +k8s:minimum=10#at least a hand
	// +k8s:maximum=200 # # no taller than a door
	Height int32 `json:"height"`
	// tilt in degrees.
	// +k8s:minimum=-5 # a little forward
	// +optional
	Tilt int32 `json:"tilt,omitempty"`
}

// +kubebuilder:object:root=true

// Shelf is a test kind.
type Shelf struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec ShelfSpec `json:"spec,omitempty"`
}
