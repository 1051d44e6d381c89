package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type DeedSpec struct {
	// owner can never change.
	// +k8s:immutable
	Owner string `json:"owner"`
	// notary can be set once.
	// +k8s:immutable
	// +optional
	Notary string `json:"notary,omitempty"`
}

// +kubebuilder:object:root=true

// Deed is a test kind.
type Deed struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec DeedSpec `json:"spec,omitempty"`
}
