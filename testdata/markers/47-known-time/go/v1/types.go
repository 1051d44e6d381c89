package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type ClockSpec struct {
	// startedAt is a Time.
	// +optional
	StartedAt *metav1.Time `json:"startedAt,omitempty"`
	// tick is a MicroTime.
	// +optional
	Tick *metav1.MicroTime `json:"tick,omitempty"`
	// period is a Duration.
	// +optional
	Period *metav1.Duration `json:"period,omitempty"`
	// history is a list of times.
	// +optional
	History []metav1.Time `json:"history,omitempty"`
}

// +kubebuilder:object:root=true

// Clock is a test kind.
type Clock struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec ClockSpec `json:"spec,omitempty"`
}
