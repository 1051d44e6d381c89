package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Protocol is a network protocol.
// +kubebuilder:validation:Enum=TCP;UDP;SCTP
type Protocol string

type PortSpec struct {
	// protocol defaults to TCP.
	// +kubebuilder:default=TCP
	// +optional
	Protocol Protocol `json:"protocol,omitempty"`
	// fallbacks are tried in order.
	// +optional
	Fallbacks []Protocol `json:"fallbacks,omitempty"`
}

// +kubebuilder:object:root=true

// Port is a test kind.
type Port struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec PortSpec `json:"spec,omitempty"`
}
