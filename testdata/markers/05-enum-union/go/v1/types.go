package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Phase is where a job is in its life.
// +kubebuilder:validation:Enum=Pending;Running;Done
type Phase string

// +kubebuilder:validation:Enum=Always;Never
type JobSpecPolicy string

type JobSpec struct {
	// phase is a named literal union.
	// +optional
	Phase Phase `json:"phase,omitempty"`
	// policy is an inline literal union.
	Policy JobSpecPolicy `json:"policy"`
}

// +kubebuilder:object:root=true

// Job is a test kind.
type Job struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec JobSpec `json:"spec,omitempty"`
}
