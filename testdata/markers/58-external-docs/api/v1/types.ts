import type { ObjectMeta } from "@kbts/runtime";

// Manual is documented elsewhere.
// +kubebuilder:externalDocs:url="https://example.com/manual",description="The manual"
export interface Manual {
  // +optional
  chapter?: string;
}

export interface BookSpec {
  // isbn links to the ISBN standard.
  // +kubebuilder:externalDocs:url="https://example.com/isbn"
  // +optional
  isbn?: string;
  // +optional
  manual?: Manual;
}

// +kubebuilder:object:root=true
// Book is a test kind.
export interface Book {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: BookSpec;
}
