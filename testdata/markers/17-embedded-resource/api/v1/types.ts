import type { ObjectMeta, RawExtension } from "@kbts/runtime";

export interface WrapperSpec {
  // template is a whole Kubernetes object.
  // +kubebuilder:validation:XEmbeddedResource
  // +kubebuilder:pruning:PreserveUnknownFields
  // +optional
  template?: RawExtension;
  // other uses the field alias.
  // +kubebuilder:validation:EmbeddedResource
  // +kubebuilder:pruning:PreserveUnknownFields
  // +optional
  other?: RawExtension;
}

// +kubebuilder:object:root=true
// Wrapper is a test kind.
export interface Wrapper {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: WrapperSpec;
}
