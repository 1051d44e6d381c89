package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type FleetSpec struct {
	// replicas is the desired number of ships.
	// +kubebuilder:default=1
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
}

type FleetStatus struct {
	// replicas is the observed number of ships.
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
	// selector is the label selector of the ships, as a string.
	// +optional
	Selector string `json:"selector,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=`.spec.replicas`

// Fleet is a scalable test kind.
type Fleet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec FleetSpec `json:"spec,omitempty"`
	// +optional
	Status FleetStatus `json:"status,omitempty"`
}
