import type { ObjectMeta, Quantity } from "@kbts/runtime";

export interface DiskSpec {
  // size is a quantity such as 10Gi.
  size: Quantity;
  // limits maps resource names to quantities.
  // +optional
  limits?: Record<string, Quantity>;
  // steps is a list of quantities.
  // +optional
  steps?: Quantity[];
}

// +kubebuilder:object:root=true
// Disk is a test kind.
export interface Disk {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: DiskSpec;
}
