import type { int32, ObjectMeta } from "@kbts/runtime";

// +kubebuilder:validation:XValidation:rule="!has(self.memory) || quantity(self.memory).isLessThan(quantity('1Gi'))",message="under 1Gi"
// +kubebuilder:validation:XValidation:rule="self.cronSpec.split(' ').size() == 5 && self.cronSpec.lowerAscii() == self.cronSpec",messageExpression="'bad schedule: ' + self.cronSpec"
export interface CronTabSpec {
  cronSpec: string;
  // +optional
  replicas?: int32;
  // +optional
  memory?: string;
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
