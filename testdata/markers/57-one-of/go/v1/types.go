package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// SourceSpec names exactly one source, at most one mirror and at least one contact.
// +kubebuilder:validation:ExactlyOneOf=git;oci
// +kubebuilder:validation:AtMostOneOf=mirror;proxy
// +kubebuilder:validation:AtLeastOneOf=email;phone
type SourceSpec struct {
	// +optional
	Git string `json:"git,omitempty"`
	// +optional
	OCI string `json:"oci,omitempty"`
	// +optional
	Mirror string `json:"mirror,omitempty"`
	// +optional
	Proxy string `json:"proxy,omitempty"`
	// +optional
	Email string `json:"email,omitempty"`
	// +optional
	Phone string `json:"phone,omitempty"`
}

// +kubebuilder:object:root=true

// Source is a test kind.
type Source struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec SourceSpec `json:"spec,omitempty"`
}
