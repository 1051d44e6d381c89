import type { int32, ObjectMeta } from "@kbts/runtime";

export interface Slot {
  // +optional
  width?: int32;
}

export interface CabinetSpec {
  // labels is a Record of strings.
  // +optional
  labels?: Record<string, string>;
  // counts is an index signature of integers.
  // +optional
  counts?: { [name: string]: int32 };
  // slots maps names to structs.
  // +optional
  slots?: Record<string, Slot>;
  // groups maps names to lists.
  // +optional
  groups?: Record<string, string[]>;
  // nested maps names to maps.
  // +optional
  nested?: Record<string, Record<string, boolean>>;
}

// +kubebuilder:object:root=true
// Cabinet is a test kind.
export interface Cabinet {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: CabinetSpec;
}
