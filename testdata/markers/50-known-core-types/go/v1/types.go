package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type WorkerSpec struct {
	// resources for the worker container.
	// +optional
	Resources corev1.ResourceRequirements `json:"resources,omitempty"`
	// env for the worker container.
	// +optional
	Env []corev1.EnvVar `json:"env,omitempty"`
	// tolerations for the worker pod.
	// +optional
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`
}

// +kubebuilder:object:root=true

// Worker is a test kind.
type Worker struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec WorkerSpec `json:"spec,omitempty"`
}
