package v2

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type ShipSpec struct {
	// fieldv2 exists only in v2.
	// +optional
	Fieldv2 string `json:"fieldv2,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Ship is a test kind.
type Ship struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec ShipSpec `json:"spec,omitempty"`
}
