import type { ObjectMeta, RawExtension } from "@kbts/runtime";

export interface BoxSpec {
  // config is not introspected at all.
  // +kubebuilder:validation:Schemaless
  // +kubebuilder:validation:Type=object
  // +kubebuilder:pruning:PreserveUnknownFields
  // +optional
  config?: RawExtension;
  // raw is a schemaless string.
  // +kubebuilder:validation:Schemaless
  // +kubebuilder:validation:Type=string
  // +optional
  raw?: string;
}

// +kubebuilder:object:root=true
// Box is a test kind.
export interface Box {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: BoxSpec;
}
