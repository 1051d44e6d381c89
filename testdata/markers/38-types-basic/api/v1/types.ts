import type { int32, int64, ObjectMeta } from "@kbts/runtime";

export interface Item {
  // sku identifies the item.
  sku: string;
  // +optional
  count?: int32;
}

export interface StoreSpec {
  // name is a string.
  name: string;
  // open is a boolean.
  open: boolean;
  // floors is a 32-bit integer.
  floors: int32;
  // revenue is a 64-bit integer.
  // +optional
  revenue?: int64;
  // aisles is a list of strings.
  // +optional
  aisles?: string[];
  // items is a list of structs.
  // +optional
  items?: Item[];
  // featured is a single struct.
  // +optional
  featured?: Item;
  // codes is a list of 64-bit integers.
  // +optional
  codes?: int64[];
}

// +kubebuilder:object:root=true
// Store is a test kind.
export interface Store {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: StoreSpec;
}
