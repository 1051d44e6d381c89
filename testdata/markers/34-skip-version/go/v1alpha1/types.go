package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type CanoeSpec struct {
	// fieldv1alpha1 exists only in v1alpha1.
	// +optional
	Fieldv1alpha1 string `json:"fieldv1alpha1,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:skipversion

// Canoe is a test kind.
type Canoe struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec CanoeSpec `json:"spec,omitempty"`
}
