package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Name is a non-empty string.
// +kubebuilder:validation:MinLength=1
type Name string

// Short is a Name of at most ten characters.
// +kubebuilder:validation:MaxLength=10
type Short Name

// Hostname is a lowercase DNS name.
// +kubebuilder:validation:MaxLength=253
// +kubebuilder:validation:Pattern=`^[a-z0-9.-]+$`
type Hostname string

// Hostnames is a list of hostnames.
// +kubebuilder:validation:MaxItems=4
type Hostnames []Hostname

// Labels are string pairs.
// +kubebuilder:validation:MaxProperties=5
type Labels map[string]string

// Tier is the service tier.
// +kubebuilder:validation:Enum=gold;silver
type Tier string

// Target names a host.
type Target struct {
	// +optional
	Host Hostname `json:"host,omitempty"`
}

type ServiceSpec struct {
	Short Short `json:"short"`
	// +optional
	Primary Hostname `json:"primary,omitempty"`
	// label is a hostname with a tighter field-level limit.
	// +kubebuilder:validation:MaxLength=63
	// +optional
	Label Hostname `json:"label,omitempty"`
	// +optional
	Mirrors Hostnames `json:"mirrors,omitempty"`
	// +optional
	Groups []Hostnames `json:"groups,omitempty"`
	// +optional
	ByZone map[string]Hostname `json:"byZone,omitempty"`
	// +optional
	Labels Labels `json:"labels,omitempty"`
	// +optional
	Target *Target `json:"target,omitempty"`
	// tier narrows the type's enum at the field.
	// +kubebuilder:validation:Enum=gold
	// +optional
	Tier Tier `json:"tier,omitempty"`
}

// +kubebuilder:object:root=true

// Service is a test kind.
type Service struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec ServiceSpec `json:"spec,omitempty"`
}
