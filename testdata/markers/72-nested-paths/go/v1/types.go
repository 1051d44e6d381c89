package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Owner struct {
	Name string `json:"name"`
	// +optional
	Team string `json:"team,omitempty"`
}

type Step struct {
	Name string `json:"name"`
	// +optional
	Image string `json:"image,omitempty"`
}

// +kubebuilder:validation:XValidation:rule="has(self.owner.team) || self.owner.name != 'nobody'",message="nobody needs a team"
type PipelineSpec struct {
	Owner Owner `json:"owner"`
	// +kubebuilder:validation:MaxItems=10
	// +optional
	Steps []Step `json:"steps,omitempty"`
}

type PipelineStatus struct {
	// +optional
	Completed int32 `json:"completed,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Owner",type=string,JSONPath=`.spec.owner.name`
// +kubebuilder:printcolumn:name="First",type=string,JSONPath=`.spec.steps[0].name`
// +kubebuilder:printcolumn:name="Done",type=integer,JSONPath=`.status.completed`
// +kubebuilder:printcolumn:name="App",type=string,JSONPath=`.metadata.labels.app`,priority=1
// +kubebuilder:selectablefield:JSONPath=`.spec.owner.team`

// Pipeline has printer columns and selectable fields on nested paths.
type Pipeline struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PipelineSpec `json:"spec"`
	// +optional
	Status PipelineStatus `json:"status,omitempty"`
}
