import type { ObjectMeta } from "@kbts/runtime";

export interface LabelSpec {
  // name is a DNS label.
  // +kubebuilder:validation:MinLength=1
  // +kubebuilder:validation:MaxLength=63
  // +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
  name: string;
  // contact is an email address.
  // +kubebuilder:validation:Format=email
  // +optional
  contact?: string;
  // since is a date.
  // +kubebuilder:validation:Format=date-time
  // +optional
  since?: string;
  // code uses a double-quoted pattern.
  // +kubebuilder:validation:Pattern="^[A-Z]{3}$"
  // +optional
  code?: string;
}

// +kubebuilder:object:root=true
// Label is a test kind.
export interface Label {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: LabelSpec;
}
