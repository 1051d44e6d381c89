package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type LabelSpec struct {
	// name is a DNS label.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	Name string `json:"name"`
	// contact is an email address.
	// +kubebuilder:validation:Format=email
	// +optional
	Contact string `json:"contact,omitempty"`
	// since is a date.
	// +kubebuilder:validation:Format=date-time
	// +optional
	Since string `json:"since,omitempty"`
	// code uses a double-quoted pattern.
	// +kubebuilder:validation:Pattern="^[A-Z]{3}$"
	// +optional
	Code string `json:"code,omitempty"`
}

// +kubebuilder:object:root=true

// Label is a test kind.
type Label struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec LabelSpec `json:"spec,omitempty"`
}
