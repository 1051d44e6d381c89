package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// CrateSpec has markers between its description lines.
// +kubebuilder:validation:MinProperties=1
// The text goes on after the marker.
type CrateSpec struct {
	// weight is measured in kilograms.
	// +kubebuilder:validation:Minimum=1
	// It is never zero.
	// +optional
	//
	// A paragraph follows a marker and a blank comment line.
	Weight int32 `json:"weight,omitempty"`
}

// Crate is a box.
// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=cr
// Its description continues below the markers.
type Crate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec CrateSpec `json:"spec,omitempty"`
}
