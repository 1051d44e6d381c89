import type { ObjectMeta } from "@kbts/runtime";

// SourceSpec names exactly one source, at most one mirror and at least one contact.
// +kubebuilder:validation:ExactlyOneOf=git;oci
// +kubebuilder:validation:AtMostOneOf=mirror;proxy
// +kubebuilder:validation:AtLeastOneOf=email;phone
export interface SourceSpec {
  // +optional
  git?: string;
  // +optional
  oci?: string;
  // +optional
  mirror?: string;
  // +optional
  proxy?: string;
  // +optional
  email?: string;
  // +optional
  phone?: string;
}

// +kubebuilder:object:root=true
// Source is a test kind.
export interface Source {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: SourceSpec;
}
