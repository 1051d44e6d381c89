package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Policy is an enum of its values, sorted (+k8s:enum).
// +k8s:enum
type Policy string

const (
	PolicyReplace Policy = "Replace"
	PolicyAllow   Policy = "Allow"
	PolicyForbid  Policy = "Forbid"
)

// DefaultMode is the value +default=ref(...) names (Kubernetes' declarative defaults; controller-gen writes no default for it).
const DefaultMode = "fast"

type Knobs struct {
	// +kubebuilder:default=forty-two
	// +optional
	Answer string `json:"answer,omitempty"`
	// +optional
	Other string `json:"other,omitempty"`
}

type ScheduleSpec struct {
	// +optional
	Policy Policy `json:"policy,omitempty"`
	// mode defaults through a reference.
	// +default=ref(DefaultMode)
	// +optional
	Mode string `json:"mode,omitempty"`
	// +default=[]
	EmptyList []string `json:"emptyList"`
	// +default={}
	EmptyMap map[string]string `json:"emptyMap"`
	// +default={}
	EmptyObject Knobs `json:"emptyObject"`
	// +default=["a","b"]
	Pair []string `json:"pair"`
	// kubebuilder:default wins over default.
	// +kubebuilder:default="kubebuilder-default"
	// +default="kubernetes-default"
	Both string `json:"both"`
}

// +kubebuilder:object:root=true
// Schedule is a test kind.
type Schedule struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec ScheduleSpec `json:"spec,omitempty"`
}
