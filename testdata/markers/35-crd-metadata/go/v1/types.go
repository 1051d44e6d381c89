package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type BadgeSpec struct {
	// +optional
	Size int32 `json:"size,omitempty"`
	// +optional
	Color string `json:"color,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:metadata:annotations="example.com/owner=team-a",annotations="example.com/tier=gold",labels="app.kubernetes.io/part-of=kbts",labels="example.com/stage=test"

// Badge is a test kind.
type Badge struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec BadgeSpec `json:"spec,omitempty"`
}
