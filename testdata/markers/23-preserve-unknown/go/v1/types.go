package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Extras keeps fields it does not declare.
// +kubebuilder:pruning:PreserveUnknownFields
type Extras struct {
	// +optional
	Known string `json:"known,omitempty"`
}

type BucketSpec struct {
	// extras uses a type-level marker.
	// +optional
	Extras Extras `json:"extras,omitempty"`
	// settings uses the field marker on a map.
	// +kubebuilder:pruning:PreserveUnknownFields
	// +optional
	Settings map[string]string `json:"settings,omitempty"`
	// legacy uses the deprecated alias.
	// +kubebuilder:validation:XPreserveUnknownFields
	// +optional
	Legacy Extras `json:"legacy,omitempty"`
}

// +kubebuilder:object:root=true

// Bucket is a test kind.
type Bucket struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec BucketSpec `json:"spec,omitempty"`
}
