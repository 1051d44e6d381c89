import type { int32, ObjectMeta } from "@kbts/runtime";

// A "# comment" after the value of +k8s:maxItems, +k8s:minimum and +k8s:maximum is dropped, as
// gengo's codetags read declarative validation tags (with or without a space before the #).
export interface ShelfSpec {
  // books on the shelf.
  // +k8s:maxItems=3 # never more than three
  books: string[];
  // height in centimetres.
  // +k8s:minimum=10#at least a hand
  // +k8s:maximum=200 # # no taller than a door
  height: int32;
  // tilt in degrees.
  // +k8s:minimum=-5 # a little forward
  // +optional
  tilt?: int32;
}

// +kubebuilder:object:root=true
// Shelf is a test kind.
export interface Shelf {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: ShelfSpec;
}
