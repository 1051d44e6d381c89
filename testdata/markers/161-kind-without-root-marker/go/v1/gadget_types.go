package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// GadgetSpec defines the desired state of Gadget.
type GadgetSpec struct {
	// size is how big the gadget is.
	// +kubebuilder:validation:Minimum=1
	Size int32 `json:"size"`
}

// Gadget has no root marker.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec GadgetSpec `json:"spec,omitempty"`
}

// GadgetTemplate has metadata but no TypeMeta: not a kind.
type GadgetTemplate struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec GadgetSpec `json:"spec,omitempty"`
}
