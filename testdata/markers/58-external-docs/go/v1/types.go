package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Manual is documented elsewhere.
// +kubebuilder:externalDocs:url="https://example.com/manual",description="The manual"
type Manual struct {
	// +optional
	Chapter string `json:"chapter,omitempty"`
}

type BookSpec struct {
	// isbn links to the ISBN standard.
	// +kubebuilder:externalDocs:url="https://example.com/isbn"
	// +optional
	ISBN string `json:"isbn,omitempty"`
	// +optional
	Manual Manual `json:"manual,omitempty"`
}

// +kubebuilder:object:root=true

// Book is a test kind.
type Book struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec BookSpec `json:"spec,omitempty"`
}
