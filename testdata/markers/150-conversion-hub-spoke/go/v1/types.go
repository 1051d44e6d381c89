package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type MemcachedSpec struct {
	// size is the number of memcached pods (replicas in v1alpha1).
	// +kubebuilder:validation:Minimum=0
	// +optional
	Size *int32 `json:"size,omitempty"`
	// image is the container image, e.g. memcached:1.6.26.
	// +optional
	Image string `json:"image,omitempty"`
}

type MemcachedStatus struct {
	// conditions represent the current state of the Memcached resource.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Size",type=integer,JSONPath=".spec.size"

// Memcached is a kind in three versions: v1 is the conversion hub, v1alpha1 and v2 its spokes.
type Memcached struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec MemcachedSpec `json:"spec,omitempty"`
	// +optional
	Status MemcachedStatus `json:"status,omitempty"`
}
