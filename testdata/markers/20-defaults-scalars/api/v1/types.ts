import type { int32, ObjectMeta } from "@kbts/runtime";

export interface ServerSpec {
  // host defaults to a bare string.
  // +kubebuilder:default=localhost
  // +optional
  host?: string;
  // port defaults to a number.
  // +kubebuilder:default=8080
  // +optional
  port?: int32;
  // tls defaults to true.
  // +kubebuilder:default=true
  // +optional
  tls?: boolean;
  // motd defaults to a quoted string with a comma.
  // +kubebuilder:default="hello, world"
  // +optional
  motd?: string;
  // level uses the JSON default marker.
  // +default="info"
  // +optional
  level?: string;
  // both has both markers; kubebuilder:default wins.
  // +default="json-default"
  // +kubebuilder:default=kubebuilder-default
  // +optional
  both?: string;
  // answer looks like a number but is a string.
  // +kubebuilder:default="42"
  // +optional
  answer?: string;
}

// +kubebuilder:object:root=true
// Server is a test kind.
export interface Server {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: ServerSpec;
}
