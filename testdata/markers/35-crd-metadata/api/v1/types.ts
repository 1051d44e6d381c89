import type { int32, ObjectMeta } from "@kbts/runtime";

export interface BadgeSpec {
  // +optional
  size?: int32;
  // +optional
  color?: string;
}

// +kubebuilder:metadata:annotations="example.com/owner=team-a",annotations="example.com/tier=gold",labels="app.kubernetes.io/part-of=kbts",labels="example.com/stage=test"
// +kubebuilder:object:root=true
// Badge is a test kind.
export interface Badge {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: BadgeSpec;
}
