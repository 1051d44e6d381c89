/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

import type { Condition, int32, ListMeta, ObjectMeta, Time } from "@kbts/runtime";

// CronTabSpec is what the user asks for: a schedule and the image to run on it.
// +kubebuilder:validation:XValidation:rule="self.cronSpec.split(' ').size() == 5",message="cronSpec must have five fields (minute hour day month weekday)"
export interface CronTabSpec {
  // cronSpec is the schedule in cron format, e.g. "*/5 * * * *".
  // +kubebuilder:validation:MinLength=9
  cronSpec: string;
  // image is the container image the cron job runs.
  // +kubebuilder:validation:MinLength=1
  image: string;
  // replicas is how many pods each run starts.
  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:default=1
  // +optional
  replicas?: int32;
}

// CronTabStatus is what the controller observed.
export interface CronTabStatus {
  // lastScheduled is when the controller last checked the schedule (metav1.Now() in Go).
  // +optional
  lastScheduled?: Time;
  // +listType=map
  // +listMapKey=type
  // +optional
  conditions?: Condition[];
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=ct
// +kubebuilder:printcolumn:name="Schedule",type=string,JSONPath=".spec.cronSpec"
// +kubebuilder:printcolumn:name="Last",type=date,JSONPath=".status.lastScheduled"
// CronTab is the Schema for the crontabs API
export interface CronTab {
  apiVersion?: string;
  kind?: string;
  // +optional
  metadata?: ObjectMeta;
  spec: CronTabSpec;
  // +optional
  status?: CronTabStatus;
}

// +kubebuilder:object:root=true
// CronTabList contains a list of CronTab
export interface CronTabList {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMeta;
  items: CronTab[];
}
