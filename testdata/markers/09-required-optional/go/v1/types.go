package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type FormSpec struct {
	// plain has no marker and no question mark: required.
	Plain string `json:"plain"`
	// question has a question mark: optional.
	Question string `json:"question,omitempty"`
	// markedOptional is required in TS but +optional wins.
	// +optional
	MarkedOptional string `json:"markedOptional"`
	// validationOptional uses the long marker.
	// +kubebuilder:validation:Optional
	ValidationOptional string `json:"validationOptional"`
	// markedRequired has a question mark but +required wins.
	// +required
	MarkedRequired string `json:"markedRequired,omitempty"`
	// validationRequired uses the long marker.
	// +kubebuilder:validation:Required
	ValidationRequired string `json:"validationRequired,omitempty"`
	// k8sOptional uses the k8s alias.
	// +k8s:optional
	K8sOptional string `json:"k8sOptional"`
	// k8sRequired uses the k8s alias.
	// +k8s:required
	K8sRequired string `json:"k8sRequired,omitempty"`
}

// +kubebuilder:object:root=true

// Form is a test kind.
type Form struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec FormSpec `json:"spec,omitempty"`
}
