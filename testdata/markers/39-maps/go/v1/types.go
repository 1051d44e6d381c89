package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Slot struct {
	// +optional
	Width int32 `json:"width,omitempty"`
}

type CabinetSpec struct {
	// labels is a Record of strings.
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// counts is an index signature of integers.
	// +optional
	Counts map[string]int32 `json:"counts,omitempty"`
	// slots maps names to structs.
	// +optional
	Slots map[string]Slot `json:"slots,omitempty"`
	// groups maps names to lists.
	// +optional
	Groups map[string][]string `json:"groups,omitempty"`
	// nested maps names to maps.
	// +optional
	Nested map[string]map[string]bool `json:"nested,omitempty"`
}

// +kubebuilder:object:root=true

// Cabinet is a test kind.
type Cabinet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec CabinetSpec `json:"spec,omitempty"`
}
