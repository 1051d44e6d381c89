package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type BoatSpec struct {
	// fieldv1 exists only in v1.
	// +optional
	Fieldv1 string `json:"fieldv1,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Boat is a test kind.
type Boat struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec BoatSpec `json:"spec,omitempty"`
}
