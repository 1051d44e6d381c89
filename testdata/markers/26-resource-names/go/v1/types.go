package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type OctopusSpec struct {
	// +optional
	Size int32 `json:"size,omitempty"`
	// +optional
	Color string `json:"color,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:path=octopodes,singular=octo,shortName=oc;octo,categories=sea;all

// Octopus is a test kind.
type Octopus struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec OctopusSpec `json:"spec,omitempty"`
}
