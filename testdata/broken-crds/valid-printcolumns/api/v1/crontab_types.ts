import type { int32, ObjectMeta } from "@kbts/runtime";

export interface CronTabSpec {
  cronSpec: string;
  // +optional
  replicas?: int32;
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Schedule",type=string,JSONPath=".spec.cronSpec"
// +kubebuilder:printcolumn:name="Last",type=date,format=date-time,JSONPath=".status.lastScheduleTime"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
export interface CronTab {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: CronTabSpec;
  status?: { lastScheduleTime?: string };
}
