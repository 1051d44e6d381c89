package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Leaf is the innermost level.
type Leaf struct {
	// value is required at the bottom.
	Value string `json:"value"`
}

// Branch holds leaves.
type Branch struct {
	// leaves are required.
	Leaves []Leaf `json:"leaves"`
	// +optional
	Weight int32 `json:"weight,omitempty"`
}

// Trunk holds branches.
type Trunk struct {
	// +optional
	Branches []Branch `json:"branches,omitempty"`
	// main is the main branch.
	Main Branch `json:"main"`
}

type TreeSpec struct {
	// trunk is three levels deep.
	Trunk Trunk `json:"trunk"`
}

// +kubebuilder:object:root=true

// Tree is a test kind.
type Tree struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec TreeSpec `json:"spec,omitempty"`
}
