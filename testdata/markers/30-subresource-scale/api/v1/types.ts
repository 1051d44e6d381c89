import type { int32, ObjectMeta } from "@kbts/runtime";

export interface FleetSpec {
  // replicas is the desired number of ships.
  // +kubebuilder:default=1
  // +optional
  replicas?: int32;
}

export interface FleetStatus {
  // replicas is the observed number of ships.
  // +optional
  replicas?: int32;
  // selector is the label selector of the ships, as a string.
  // +optional
  selector?: string;
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=`.spec.replicas`
// Fleet is a scalable test kind.
export interface Fleet {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: FleetSpec;
  // +optional
  status?: FleetStatus;
}
