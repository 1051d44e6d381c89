package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type EnvelopeSpec struct {
	// payload is any JSON object.
	// +optional
	Payload *runtime.RawExtension `json:"payload,omitempty"`
	// attachments are any JSON objects.
	// +optional
	Attachments []runtime.RawExtension `json:"attachments,omitempty"`
}

// +kubebuilder:object:root=true

// Envelope is a test kind.
type Envelope struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec EnvelopeSpec `json:"spec,omitempty"`
}
