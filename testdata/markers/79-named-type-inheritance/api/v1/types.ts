import type { ObjectMeta } from "@kbts/runtime";

// Name is a non-empty string.
// +kubebuilder:validation:MinLength=1
export type Name = string;

// Short is a Name of at most ten characters.
// +kubebuilder:validation:MaxLength=10
export type Short = Name;

// Hostname is a lowercase DNS name.
// +kubebuilder:validation:MaxLength=253
// +kubebuilder:validation:Pattern=`^[a-z0-9.-]+$`
export type Hostname = string;

// Hostnames is a list of hostnames.
// +kubebuilder:validation:MaxItems=4
export type Hostnames = Hostname[];

// Labels are string pairs.
// +kubebuilder:validation:MaxProperties=5
export type Labels = Record<string, string>;

// Tier is the service tier.
// +kubebuilder:validation:Enum=gold;silver
export type Tier = string;

// Target names a host.
export interface Target {
  // +optional
  host?: Hostname;
}

export interface ServiceSpec {
  short: Short;
  // +optional
  primary?: Hostname;
  // label is a hostname with a tighter field-level limit.
  // +kubebuilder:validation:MaxLength=63
  // +optional
  label?: Hostname;
  // +optional
  mirrors?: Hostnames;
  // +optional
  groups?: Hostnames[];
  // +optional
  byZone?: Record<string, Hostname>;
  // +optional
  labels?: Labels;
  // +optional
  target?: Target;
  // tier narrows the type's enum at the field.
  // +kubebuilder:validation:Enum=gold
  // +optional
  tier?: Tier;
}

// +kubebuilder:object:root=true
// Service is a test kind.
export interface Service {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: ServiceSpec;
}
