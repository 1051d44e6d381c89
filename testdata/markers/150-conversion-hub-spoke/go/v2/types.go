package v2

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// ImageSpec names a container image.
type ImageSpec struct {
	// repository is the image without its tag.
	// +kubebuilder:validation:MinLength=1
	Repository string `json:"repository"`
	// tag is the image tag.
	// +optional
	Tag string `json:"tag,omitempty"`
}

type MemcachedSpec struct {
	// size is the number of memcached pods.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Size *int32 `json:"size,omitempty"`
	// image is the container image, by repository and tag.
	// +optional
	Image *ImageSpec `json:"image,omitempty"`
}

type MemcachedStatus struct {
	// conditions represent the current state of the Memcached resource.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Image",type=string,JSONPath=".spec.image.repository"

// Memcached is a kind in three versions: v1 is the conversion hub, v1alpha1 and v2 its spokes.
type Memcached struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec MemcachedSpec `json:"spec,omitempty"`
	// +optional
	Status MemcachedStatus `json:"status,omitempty"`
}
