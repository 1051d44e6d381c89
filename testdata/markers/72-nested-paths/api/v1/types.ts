import type { int32, ObjectMeta } from "@kbts/runtime";

export interface Owner {
  name: string;
  // +optional
  team?: string;
}

export interface Step {
  name: string;
  // +optional
  image?: string;
}

// +kubebuilder:validation:XValidation:rule="has(self.owner.team) || self.owner.name != 'nobody'",message="nobody needs a team"
export interface PipelineSpec {
  owner: Owner;
  // +kubebuilder:validation:MaxItems=10
  // +optional
  steps?: Step[];
}

export interface PipelineStatus {
  // +optional
  completed?: int32;
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Owner",type=string,JSONPath=`.spec.owner.name`
// +kubebuilder:printcolumn:name="First",type=string,JSONPath=`.spec.steps[0].name`
// +kubebuilder:printcolumn:name="Done",type=integer,JSONPath=`.status.completed`
// +kubebuilder:printcolumn:name="App",type=string,JSONPath=`.metadata.labels.app`,priority=1
// +kubebuilder:selectablefield:JSONPath=`.spec.owner.team`
// Pipeline has printer columns and selectable fields on nested paths.
export interface Pipeline {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: PipelineSpec;
  // +optional
  status?: PipelineStatus;
}
