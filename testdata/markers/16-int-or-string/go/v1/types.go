package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

type RolloutSpec struct {
	// maxSurge is a number or a percentage.
	// +optional
	MaxSurge *intstr.IntOrString `json:"maxSurge,omitempty"`
	// maxUnavailable is limited by a pattern.
	// +kubebuilder:validation:XIntOrString
	// +kubebuilder:validation:Pattern=`^(\d+|\d+%)$`
	// +kubebuilder:validation:MaxLength=5
	// +optional
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
}

// +kubebuilder:object:root=true

// Rollout is a test kind.
type Rollout struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec RolloutSpec `json:"spec,omitempty"`
}
