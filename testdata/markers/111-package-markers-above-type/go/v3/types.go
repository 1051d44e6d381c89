package v3

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type CanoeSpec struct {
	// paddles are counted.
	Paddles string `json:"paddles"`
}

// Canoe is a test kind: +kubebuilder:skip in a type's doc comment is ignored, as by controller-gen.
// +kubebuilder:skip
// +kubebuilder:object:root=true
type Canoe struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              CanoeSpec `json:"spec"`
}
