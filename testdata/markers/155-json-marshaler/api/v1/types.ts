import type { int64, JSONMarshaler, ObjectMeta, TextMarshaler } from "@kbts/runtime";

// +kubebuilder:validation:Type=string
// Flag is a boolean that marshals itself as a string.
export type Flag = JSONMarshaler<boolean>;

// +kubebuilder:validation:Type=string
// Link is a URL that marshals itself as a string: its parts are not the schema.
export type Link = JSONMarshaler<{ scheme: string; host: string; path: string }>;

// BagFields are what a Bag holds in the program.
export interface BagFields {
  known: string;
  rest?: Record<string, string>;
}

// +kubebuilder:validation:Type=object
// +kubebuilder:pruning:PreserveUnknownFields
// Bag keeps every field it is given: its one known field is not the schema.
export type Bag = JSONMarshaler<BagFields>;

// +kubebuilder:validation:Type=integer
// +kubebuilder:validation:Format=int64
// Stamp is a time that marshals itself as Unix milliseconds.
export type Stamp = JSONMarshaler<int64>;

export interface SpanValue {
  // value is in nanoseconds.
  value: int64;
}

// Span marshals itself but has no Type marker: its fields are the schema.
export type Span = JSONMarshaler<SpanValue>;

// Host is an IPv4 address that serializes itself as text (Go: an encoding.TextMarshaler): a string.
export type Host = TextMarshaler;

export interface BeaconSpec {
  // +optional
  enabled?: Flag;
  // link says where.
  // +optional
  link?: Link;
  // +optional
  extra?: Bag;
  // +optional
  stamp?: Stamp;
  // +optional
  span?: Span;
  // +optional
  host?: Host;
}

// +kubebuilder:object:root=true
// Beacon is a test kind.
export interface Beacon {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: BeaconSpec;
}
