import type { int32, ObjectMeta } from "@kbts/runtime";

export interface GizmoSpec {
  // size has a rule with a reason the API does not know.
  // +kubebuilder:validation:XValidation:rule="self > 0",reason=FieldValueWrong
  size: int32;
  // +optional
  replicas?: int32;
}

// +kubebuilder:printcolumn:name="Size",type=integer,JSONPath=`.spec.size`,colour=red
// +kubebuilder:subresource:scale:specpath=.spec.replicas
// +kubebuilder:object:root=true
// Gizmo is a test kind.
export interface Gizmo {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: GizmoSpec;
}
