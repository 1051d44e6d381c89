import type { int32, ObjectMeta, Quantity, TextMarshaler } from "@kbts/runtime";

// ResourceName names a resource (a named string type).
export type ResourceName = string;

// Color is a string-literal union.
export type Color = "red" | "green";

// Size is a TypeScript string enum.
export enum Size {
  Small = "small",
  Large = "large",
}

// Address serializes itself as text (Go: an encoding.TextMarshaler).
export type Address = TextMarshaler;

export interface PaletteSpec {
  // limits is keyed by a named string type.
  limits: Record<ResourceName, Quantity>;
  // weights is keyed by a string-literal union.
  // +optional
  weights?: Record<Color, int32>;
  // labels is keyed by a string enum.
  // +optional
  labels?: Record<Size, string>;
  // aliases is keyed by a type that marshals itself as text.
  // +optional
  aliases?: Record<Address, string>;
  // nested maps keep their named keys too.
  // +optional
  nested?: Record<ResourceName, Record<Color, boolean>>;
}

// +kubebuilder:object:root=true
// Palette is a test kind.
export interface Palette {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: PaletteSpec;
}
