package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type ServerSpec struct {
	// host defaults to a bare string.
	// +kubebuilder:default=localhost
	// +optional
	Host string `json:"host,omitempty"`
	// port defaults to a number.
	// +kubebuilder:default=8080
	// +optional
	Port int32 `json:"port,omitempty"`
	// tls defaults to true.
	// +kubebuilder:default=true
	// +optional
	TLS bool `json:"tls,omitempty"`
	// motd defaults to a quoted string with a comma.
	// +kubebuilder:default="hello, world"
	// +optional
	Motd string `json:"motd,omitempty"`
	// level uses the JSON default marker.
	// +default="info"
	// +optional
	Level string `json:"level,omitempty"`
	// both has both markers; kubebuilder:default wins.
	// +default="json-default"
	// +kubebuilder:default=kubebuilder-default
	// +optional
	Both string `json:"both,omitempty"`
	// answer looks like a number but is a string.
	// +kubebuilder:default="42"
	// +optional
	Answer string `json:"answer,omitempty"`
}

// +kubebuilder:object:root=true

// Server is a test kind.
type Server struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec ServerSpec `json:"spec,omitempty"`
}
