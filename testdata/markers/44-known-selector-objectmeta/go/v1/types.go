package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Template stamps out labelled objects.
type Template struct {
	// metadata of the stamped objects.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Image string `json:"image,omitempty"`
}

type HerdSpec struct {
	// selector picks the members.
	// +optional
	Selector *metav1.LabelSelector `json:"selector,omitempty"`
	// template is applied to every member.
	// +optional
	Template Template `json:"template,omitempty"`
}

// +kubebuilder:object:root=true

// Herd is a test kind.
type Herd struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec HerdSpec `json:"spec,omitempty"`
}
