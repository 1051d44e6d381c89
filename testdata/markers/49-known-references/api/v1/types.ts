import type {
  LocalObjectReference,
  ObjectMeta,
  ObjectReference,
  OwnerReference,
  TypedLocalObjectReference,
} from "@kbts/runtime";

export interface LinkSpec {
  // owner is an owner reference.
  // +optional
  owner?: OwnerReference;
  // target is an object reference.
  // +optional
  target?: ObjectReference;
  // secret is a local object reference.
  // +optional
  secret?: LocalObjectReference;
  // source is a typed local object reference.
  // +optional
  source?: TypedLocalObjectReference;
}

// +kubebuilder:object:root=true
// Link is a test kind.
export interface Link {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: LinkSpec;
}
