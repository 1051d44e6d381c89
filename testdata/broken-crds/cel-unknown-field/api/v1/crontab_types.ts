import type { int32, ObjectMeta } from "@kbts/runtime";

// +kubebuilder:validation:XValidation:rule="self.cronSpecc != ''",message="a schedule"
export interface CronTabSpec {
  cronSpec: string;
  // +optional
  replicas?: int32;
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
export interface CronTab {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: CronTabSpec;
  status?: { lastScheduleTime?: string };
}
