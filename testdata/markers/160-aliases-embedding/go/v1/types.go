package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Origin is embedded through an alias.
type Origin struct {
	// fromOrigin comes through the alias.
	// +optional
	FromOrigin string `json:"fromOrigin,omitempty"`
}

// OriginAlias is another name for Origin (Go: type OriginAlias = Origin).
type OriginAlias = Origin

// Pointed is embedded by pointer in Go.
type Pointed struct {
	// +optional
	FromPointer string `json:"fromPointer,omitempty"`
}

// +kubebuilder:title="label on type"
type Label = string

// +kubebuilder:validation:MinLength=1
// +kubebuilder:validation:MaxLength=255
type Bounded = string

// Tags is a validated list, on the type.
// +kubebuilder:validation:MinItems=1
// +kubebuilder:validation:items:MinLength=1
// +kubebuilder:validation:items:MaxLength=63
// +listType=set
type Tags []string

// Count is an unmarked named integer.
type Count int32

// AliasSpec reaches fields through an alias and a pointer.
type AliasSpec struct {
	OriginAlias `json:",inline"`
	*Pointed    `json:",inline"`

	// titled overrides the type's title.
	// +kubebuilder:title="label on field"
	// +optional
	Titled Label `json:"titled,omitempty"`
	// +optional
	Untitled Label `json:"untitled,omitempty"`
	// +optional
	Bounded Bounded `json:"bounded,omitempty"`
	// narrowed adds bounds the type's contradict.
	// +kubebuilder:validation:MinLength=10
	// +kubebuilder:validation:MaxLength=10
	// +optional
	Narrowed Bounded `json:"narrowed,omitempty"`
	// +optional
	Tags Tags `json:"tags,omitempty"`
	// counted is bounded where it is used.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	// +optional
	Counted Count `json:"counted,omitempty"`
}

// +kubebuilder:object:root=true
// Alias is a test kind.
type Alias struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec AliasSpec `json:"spec,omitempty"`
}
