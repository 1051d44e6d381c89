package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Position is shared by both kinds.
type Position struct {
	Row int32 `json:"row"`
	// +optional
	Column int32 `json:"column,omitempty"`
}

type AppleSpec struct {
	// +optional
	Variety string `json:"variety,omitempty"`
	// +optional
	Position *Position `json:"position,omitempty"`
}

// +kubebuilder:object:root=true

// Apple is namespaced.
type Apple struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec AppleSpec `json:"spec,omitempty"`
}

type OrchardSpec struct {
	// +optional
	Positions []Position `json:"positions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster

// Orchard is cluster scoped.
type Orchard struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec OrchardSpec `json:"spec,omitempty"`
}
