import type { int32, ObjectMeta } from "@kbts/runtime";

export interface Endpoint {
  name: string;
  // +kubebuilder:default=TCP
  // +optional
  protocol?: string;
  port: int32;
}

export interface MeshSpec {
  // hosts is atomic.
  // +listType=atomic
  // +optional
  hosts?: string[];
  // tags is a set.
  // +listType=set
  // +optional
  tags?: string[];
  // endpoints is a map keyed by name and protocol.
  // +listType=map
  // +listMapKey=name
  // +listMapKey=protocol
  // +optional
  endpoints?: Endpoint[];
  // aliases uses the k8s prefixed markers.
  // +k8s:listType=map
  // +k8s:listMapKey=name
  // +optional
  aliases?: Endpoint[];
}

// +kubebuilder:object:root=true
// Mesh is a test kind.
export interface Mesh {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: MeshSpec;
}
