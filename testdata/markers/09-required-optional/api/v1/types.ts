import type { ObjectMeta } from "@kbts/runtime";

export interface FormSpec {
  // plain has no marker and no question mark: required.
  plain: string;
  // question has a question mark: optional.
  question?: string;
  // markedOptional is required in TS but +optional wins.
  // +optional
  markedOptional: string;
  // validationOptional uses the long marker.
  // +kubebuilder:validation:Optional
  validationOptional: string;
  // markedRequired has a question mark but +required wins.
  // +required
  markedRequired?: string;
  // validationRequired uses the long marker.
  // +kubebuilder:validation:Required
  validationRequired?: string;
  // k8sOptional uses the k8s alias.
  // +k8s:optional
  k8sOptional: string;
  // k8sRequired uses the k8s alias.
  // +k8s:required
  k8sRequired?: string;
}

// +kubebuilder:object:root=true
// Form is a test kind.
export interface Form {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: FormSpec;
}
