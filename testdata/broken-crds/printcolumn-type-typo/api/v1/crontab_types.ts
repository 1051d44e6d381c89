import type { int32, ObjectMeta } from "@kbts/runtime";

export interface CronTabSpec {
  cronSpec: string;
  // +optional
  replicas?: int32;
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Spec",type=strng,JSONPath=".spec.cronSpec"
export interface CronTab {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: CronTabSpec;
  status?: { lastScheduleTime?: string };
}
