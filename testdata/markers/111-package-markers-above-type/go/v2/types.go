package v2

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type RaftSpec struct {
	// logs is never generated.
	Logs string `json:"logs"`
}

// +kubebuilder:skip

// Raft is a test kind; the skip above it is package-level, so v2 gets no CRD at all.
// +kubebuilder:object:root=true
type Raft struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              RaftSpec `json:"spec"`
}
