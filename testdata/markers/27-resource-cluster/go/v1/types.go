package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type RegionSpec struct {
	// +optional
	Size int32 `json:"size,omitempty"`
	// +optional
	Color string `json:"color,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster,shortName=rg

// Region is a test kind.
type Region struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec RegionSpec `json:"spec,omitempty"`
}
