import type { ObjectMeta } from "@kbts/runtime";

export interface OrderSpec {
  item10: string;
  item2: string;
  item1: string;
  Zeta: string;
  alpha: string;
  _under: string;
  "x-dash": string;
  aB: string;
  ab: string;
  a1b: string;
  a01b: string;
  "a.b": string;
}

// +kubebuilder:object:root=true
// Order is a test kind.
export interface Order {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: OrderSpec;
}
