package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type PartialSettings struct {
	// host is where to connect.
	// +optional
	Host string `json:"host,omitempty"`
	// port is where to connect.
	// +kubebuilder:validation:Minimum=1
	// +optional
	Port int32 `json:"port,omitempty"`
	// debug turns on logging.
	// +optional
	Debug bool `json:"debug,omitempty"`
}

type PickSettings struct {
	// host is where to connect.
	Host string `json:"host"`
	// port is where to connect.
	// +kubebuilder:validation:Minimum=1
	Port int32 `json:"port"`
}

type OmitSettings struct {
	// debug turns on logging.
	Debug bool `json:"debug"`
}

type RequiredSettings struct {
	// host is where to connect.
	Host string `json:"host"`
	// port is where to connect.
	// +kubebuilder:validation:Minimum=1
	Port int32 `json:"port"`
	// debug turns on logging.
	Debug bool `json:"debug"`
}

type ConfigSpec struct {
	// overrides are partial settings.
	// +optional
	Overrides PartialSettings `json:"overrides,omitempty"`
	// endpoint picks host and port.
	Endpoint PickSettings `json:"endpoint"`
	// flags omit host and port.
	// +optional
	Flags OmitSettings `json:"flags,omitempty"`
	// strict makes every setting required.
	// +optional
	Strict RequiredSettings `json:"strict,omitempty"`
}

// +kubebuilder:object:root=true

// Config is a test kind.
type Config struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec ConfigSpec `json:"spec,omitempty"`
}
