import type { ObjectMeta } from "@kbts/runtime";

// Protocol is a network protocol.
export enum Protocol {
  TCP = "TCP",
  UDP = "UDP",
  SCTP = "SCTP",
}

export interface PortSpec {
  // protocol defaults to TCP.
  // +kubebuilder:default=TCP
  // +optional
  protocol?: Protocol;
  // fallbacks are tried in order.
  // +optional
  fallbacks?: Protocol[];
}

// +kubebuilder:object:root=true
// Port is a test kind.
export interface Port {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: PortSpec;
}
