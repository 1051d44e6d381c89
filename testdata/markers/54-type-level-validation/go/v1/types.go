package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Hostname is a lowercase DNS name.
// +kubebuilder:validation:MinLength=1
// +kubebuilder:validation:MaxLength=253
// +kubebuilder:validation:Pattern=`^[a-z0-9.-]+$`
type Hostname string

// Percent is between 0 and 100.
// +kubebuilder:validation:Minimum=0
// +kubebuilder:validation:Maximum=100
type Percent int32

// HostList holds at most three hostnames.
// +kubebuilder:validation:MaxItems=3
// +listType=set
type HostList []Hostname

type RouteSpec struct {
	// host uses the named type's validation.
	Host Hostname `json:"host"`
	// weight adds a field marker on top of the type's.
	// +kubebuilder:default=50
	// +optional
	Weight Percent `json:"weight,omitempty"`
	// mirrors uses a named list type.
	// +optional
	Mirrors HostList `json:"mirrors,omitempty"`
}

// +kubebuilder:object:root=true

// Route is a test kind.
type Route struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec RouteSpec `json:"spec,omitempty"`
}
