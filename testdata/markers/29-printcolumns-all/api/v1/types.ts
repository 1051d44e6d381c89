import type { Condition, int32, ObjectMeta } from "@kbts/runtime";

export interface BrickSpec {
  // +optional
  size?: int32;
  // +optional
  color?: string;
}

export interface BrickStatus {
  // +listType=map
  // +listMapKey=type
  // +optional
  conditions?: Condition[];
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Size",type=integer,JSONPath=`.spec.size`,description="how big the brick is",format=int32,priority=0
// +kubebuilder:printcolumn:name="Color",type=string,JSONPath=".spec.color",description="the color",priority=1
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`,priority=10
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
// Brick is a test kind.
export interface Brick {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: BrickSpec;
  // +optional
  status?: BrickStatus;
}
