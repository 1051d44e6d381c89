import type { IntOrString, ObjectMeta } from "@kbts/runtime";

export interface WithMap {
  // +optional
  inner?: Record<string, string>;
}

// Blobs is a granular map of bytes, on the type.
// +mapType=granular
export type Blobs = Record<string, Uint8Array>;

export interface VaultSpec {
  // binary is Go's []byte.
  binary: Uint8Array;
  // byName maps names to bytes.
  // +optional
  byName?: Record<string, Uint8Array>;
  // +mapType=granular
  // +optional
  granular?: Record<string, Uint8Array>;
  // +optional
  blobs?: Blobs;
  // deep is a map of maps of maps.
  // +optional
  deep?: Record<string, Record<string, Record<string, string>>>;
  // holders are maps of objects holding maps.
  // +optional
  holders?: Record<string, WithMap>;
  // flags are maps of lists of booleans.
  // +optional
  flags?: Record<string, boolean[]>;
  // +k8s:listType=set
  // +optional
  set?: string[];
  // +k8s:listType=atomic
  // +optional
  atomic?: string[];
  // percents are ints or percentages.
  // +kubebuilder:validation:items:XIntOrString
  // +kubebuilder:validation:items:MaxLength=10
  // +kubebuilder:validation:items:MinLength=1
  // +kubebuilder:validation:items:Pattern="^((100|[0-9]{1,2})%|[0-9]+)$"
  // +optional
  percents?: IntOrString[];
  // choices are from a mixed set.
  // +kubebuilder:validation:items:XIntOrString
  // +kubebuilder:validation:items:Enum=1;2;"foo";"bar"
  // +optional
  choices?: IntOrString[];
}

// +kubebuilder:object:root=true
// Vault is a test kind.
export interface Vault {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: VaultSpec;
}
