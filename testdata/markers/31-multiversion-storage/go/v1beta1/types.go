package v1beta1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type ShipSpec struct {
	// fieldv1beta1 exists only in v1beta1.
	// +optional
	Fieldv1beta1 string `json:"fieldv1beta1,omitempty"`
}

// +kubebuilder:object:root=true

// Ship is a test kind.
type Ship struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec ShipSpec `json:"spec,omitempty"`
}
