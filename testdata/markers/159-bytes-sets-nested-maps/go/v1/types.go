package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

type WithMap struct {
	// +optional
	Inner map[string]string `json:"inner,omitempty"`
}

// Blobs is a granular map of bytes, on the type.
// +mapType=granular
type Blobs map[string][]byte

type VaultSpec struct {
	// binary is Go's []byte.
	Binary []byte `json:"binary"`
	// byName maps names to bytes.
	// +optional
	ByName map[string][]byte `json:"byName,omitempty"`
	// +mapType=granular
	// +optional
	Granular map[string][]byte `json:"granular,omitempty"`
	// +optional
	Blobs Blobs `json:"blobs,omitempty"`
	// deep is a map of maps of maps.
	// +optional
	Deep map[string]map[string]map[string]string `json:"deep,omitempty"`
	// holders are maps of objects holding maps.
	// +optional
	Holders map[string]WithMap `json:"holders,omitempty"`
	// flags are maps of lists of booleans.
	// +optional
	Flags map[string][]bool `json:"flags,omitempty"`
	// +k8s:listType=set
	// +optional
	Set []string `json:"set,omitempty"`
	// +k8s:listType=atomic
	// +optional
	Atomic []string `json:"atomic,omitempty"`
	// percents are ints or percentages.
	// +kubebuilder:validation:items:XIntOrString
	// +kubebuilder:validation:items:MaxLength=10
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:Pattern="^((100|[0-9]{1,2})%|[0-9]+)$"
	// +optional
	Percents []*intstr.IntOrString `json:"percents,omitempty"`
	// choices are from a mixed set.
	// +kubebuilder:validation:items:XIntOrString
	// +kubebuilder:validation:items:Enum=1;2;"foo";"bar"
	// +optional
	Choices []intstr.IntOrString `json:"choices,omitempty"`
}

// +kubebuilder:object:root=true
// Vault is a test kind.
type Vault struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec VaultSpec `json:"spec,omitempty"`
}
