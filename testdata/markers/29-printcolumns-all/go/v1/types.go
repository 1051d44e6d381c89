package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type BrickSpec struct {
	// +optional
	Size int32 `json:"size,omitempty"`
	// +optional
	Color string `json:"color,omitempty"`
}

type BrickStatus struct {
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Size",type=integer,JSONPath=`.spec.size`,description="how big the brick is",format=int32,priority=0
// +kubebuilder:printcolumn:name="Color",type=string,JSONPath=".spec.color",description="the color",priority=1
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`,priority=10
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"

// Brick is a test kind.
type Brick struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec BrickSpec `json:"spec,omitempty"`
	// +optional
	Status BrickStatus `json:"status,omitempty"`
}
