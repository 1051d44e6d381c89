package v1

import (
	"net/url"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ResourceName names a resource (a named string type).
type ResourceName string

// Color is a string-literal union.
// +kubebuilder:validation:Enum=red;green
type Color string

// Size is a TypeScript string enum.
// +kubebuilder:validation:Enum=small;large
type Size string

const (
	SizeSmall Size = "small"
	SizeLarge Size = "large"
)

// Address serializes itself as text (Go: an encoding.TextMarshaler).
type Address struct{ url.URL }

// MarshalText implements encoding.TextMarshaler.
func (a *Address) MarshalText() ([]byte, error) { return a.MarshalBinary() }

type PaletteSpec struct {
	// limits is keyed by a named string type.
	Limits map[ResourceName]resource.Quantity `json:"limits"`
	// weights is keyed by a string-literal union.
	// +optional
	Weights map[Color]int32 `json:"weights,omitempty"`
	// labels is keyed by a string enum.
	// +optional
	Labels map[Size]string `json:"labels,omitempty"`
	// aliases is keyed by a type that marshals itself as text.
	// +optional
	Aliases map[Address]string `json:"aliases,omitempty"`
	// nested maps keep their named keys too.
	// +optional
	Nested map[ResourceName]map[Color]bool `json:"nested,omitempty"`
}

// +kubebuilder:object:root=true
// Palette is a test kind.
type Palette struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec PaletteSpec `json:"spec,omitempty"`
}
