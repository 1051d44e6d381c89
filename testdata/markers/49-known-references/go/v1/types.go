package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type LinkSpec struct {
	// owner is an owner reference.
	// +optional
	Owner *metav1.OwnerReference `json:"owner,omitempty"`
	// target is an object reference.
	// +optional
	Target *corev1.ObjectReference `json:"target,omitempty"`
	// secret is a local object reference.
	// +optional
	Secret *corev1.LocalObjectReference `json:"secret,omitempty"`
	// source is a typed local object reference.
	// +optional
	Source *corev1.TypedLocalObjectReference `json:"source,omitempty"`
}

// +kubebuilder:object:root=true

// Link is a test kind.
type Link struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec LinkSpec `json:"spec,omitempty"`
}
