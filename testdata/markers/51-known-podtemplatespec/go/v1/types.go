package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type BatchSpec struct {
	// template describes the pods to run.
	Template corev1.PodTemplateSpec `json:"template"`
}

// +kubebuilder:object:root=true

// Batch is a test kind.
type Batch struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec BatchSpec `json:"spec,omitempty"`
}
