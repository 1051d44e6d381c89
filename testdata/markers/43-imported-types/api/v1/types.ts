import type { ObjectMeta } from "@kbts/runtime";
import type { Address, Country } from "./common.js";

export interface OfficeSpec {
  // address comes from another file.
  address: Address;
  // country comes from another file too.
  // +optional
  country?: Country;
  // branches reuse the imported type.
  // +optional
  branches?: Address[];
}

// +kubebuilder:object:root=true
// Office is a test kind.
export interface Office {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: OfficeSpec;
}
