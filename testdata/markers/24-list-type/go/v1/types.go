package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Endpoint struct {
	Name string `json:"name"`
	// +kubebuilder:default=TCP
	// +optional
	Protocol string `json:"protocol,omitempty"`
	Port     int32  `json:"port"`
}

type MeshSpec struct {
	// hosts is atomic.
	// +listType=atomic
	// +optional
	Hosts []string `json:"hosts,omitempty"`
	// tags is a set.
	// +listType=set
	// +optional
	Tags []string `json:"tags,omitempty"`
	// endpoints is a map keyed by name and protocol.
	// +listType=map
	// +listMapKey=name
	// +listMapKey=protocol
	// +optional
	Endpoints []Endpoint `json:"endpoints,omitempty"`
	// aliases uses the k8s prefixed markers.
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +optional
	Aliases []Endpoint `json:"aliases,omitempty"`
}

// +kubebuilder:object:root=true

// Mesh is a test kind.
type Mesh struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec MeshSpec `json:"spec,omitempty"`
}
