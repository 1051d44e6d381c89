package v1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type DiskSpec struct {
	// size is a quantity such as 10Gi.
	Size resource.Quantity `json:"size"`
	// limits maps resource names to quantities.
	// +optional
	Limits map[string]resource.Quantity `json:"limits,omitempty"`
	// steps is a list of quantities.
	// +optional
	Steps []resource.Quantity `json:"steps,omitempty"`
}

// +kubebuilder:object:root=true

// Disk is a test kind.
type Disk struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec DiskSpec `json:"spec,omitempty"`
}
