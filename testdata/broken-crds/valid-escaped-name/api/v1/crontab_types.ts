import type { int32, ObjectMeta } from "@kbts/runtime";

// +kubebuilder:validation:XValidation:rule="self.__namespace__ != ''",message="namespace is set"
export interface CronTabSpec {
  cronSpec: string;
  // +optional
  replicas?: int32;
  namespace: string;
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
