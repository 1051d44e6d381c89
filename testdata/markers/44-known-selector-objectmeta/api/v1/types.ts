import type { LabelSelector, ObjectMeta } from "@kbts/runtime";

// Template stamps out labelled objects.
export interface Template {
  // metadata of the stamped objects.
  // +optional
  metadata?: ObjectMeta;
  // +optional
  image?: string;
}

export interface HerdSpec {
  // selector picks the members.
  // +optional
  selector?: LabelSelector;
  // template is applied to every member.
  // +optional
  template?: Template;
}

// +kubebuilder:object:root=true
// Herd is a test kind.
export interface Herd {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: HerdSpec;
}
