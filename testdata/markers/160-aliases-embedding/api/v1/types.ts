import type { int32, ObjectMeta } from "@kbts/runtime";

// Origin is embedded through an alias.
export interface Origin {
  // fromOrigin comes through the alias.
  // +optional
  fromOrigin?: string;
}

// OriginAlias is another name for Origin (Go: type OriginAlias = Origin).
export type OriginAlias = Origin;

// Pointed is embedded by pointer in Go.
export interface Pointed {
  // +optional
  fromPointer?: string;
}

// +kubebuilder:title="label on type"
export type Label = string;

// +kubebuilder:validation:MinLength=1
// +kubebuilder:validation:MaxLength=255
export type Bounded = string;

// Tags is a validated list, on the type.
// +kubebuilder:validation:MinItems=1
// +kubebuilder:validation:items:MinLength=1
// +kubebuilder:validation:items:MaxLength=63
// +listType=set
export type Tags = string[];

// Count is an unmarked named integer.
export type Count = int32;

// AliasSpec reaches fields through an alias and a pointer.
export interface AliasSpec extends OriginAlias, Pointed {
  // titled overrides the type's title.
  // +kubebuilder:title="label on field"
  // +optional
  titled?: Label;
  // +optional
  untitled?: Label;
  // +optional
  bounded?: Bounded;
  // narrowed adds bounds the type's contradict.
  // +kubebuilder:validation:MinLength=10
  // +kubebuilder:validation:MaxLength=10
  // +optional
  narrowed?: Bounded;
  // +optional
  tags?: Tags;
  // counted is bounded where it is used.
  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:validation:Maximum=10
  // +optional
  counted?: Count;
}

// +kubebuilder:object:root=true
// Alias is a test kind.
export interface Alias {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: AliasSpec;
}
