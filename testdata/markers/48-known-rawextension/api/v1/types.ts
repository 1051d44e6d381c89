import type { ObjectMeta, RawExtension } from "@kbts/runtime";

export interface EnvelopeSpec {
  // payload is any JSON object.
  // +optional
  payload?: RawExtension;
  // attachments are any JSON objects.
  // +optional
  attachments?: RawExtension[];
}

// +kubebuilder:object:root=true
// Envelope is a test kind.
export interface Envelope {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: EnvelopeSpec;
}
