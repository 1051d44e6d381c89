import type { int32, ObjectMeta } from "@kbts/runtime";

export interface CronTabSpec {
  cronSpec: string;
  // +optional
  replicas?: int32;
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Replicas",type=integer,format=int23,JSONPath=".spec.replicas"
export interface CronTab {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: CronTabSpec;
  status?: { lastScheduleTime?: string };
}
