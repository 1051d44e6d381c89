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

import type { Condition, int32, int64, LabelSelector, ListMeta, ObjectMeta } from "@kbts/runtime";

// Enforcement is what a budget does about pods that would exceed it.
// Report: count and report only (status, events, metrics). Deny: also refuse such pods at admission.
// +kubebuilder:validation:Enum=Report;Deny
export type Enforcement = "Report" | "Deny";

// GPUBudgetSpec caps the GPUs the pods of one namespace (or the pods a selector picks in it) may hold.
// +kubebuilder:validation:XValidation:rule="!self.resourceName.startsWith('kubernetes.io/') && !self.resourceName.contains('.kubernetes.io/') && !self.resourceName.startsWith('requests.')",message="resourceName must be an extended resource such as nvidia.com/gpu, not a native kubernetes.io resource",fieldPath=".resourceName"
export interface GPUBudgetSpec {
  // maxGPUs is the most GPUs the selected pods may hold together.
  // +kubebuilder:validation:Minimum=0
  maxGPUs: int64;

  // selector picks the pods that count against this budget; all pods of the namespace when absent.
  // +optional
  selector?: LabelSelector;

  // resourceName is the extended resource counted: nvidia.com/gpu, amd.com/gpu, a MIG profile
  // such as nvidia.com/mig-1g.5gb, ... It cannot change: create another budget for another resource.
  // +kubebuilder:default="nvidia.com/gpu"
  // +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$`
  // +kubebuilder:validation:MaxLength=253
  // +kubebuilder:validation:XValidation:rule="self == oldSelf",message="resourceName is immutable; create another budget for another resource"
  // +optional
  resourceName?: string;

  // enforcement is Report (count and report) or Deny (also refuse pods that would exceed the cap).
  // +kubebuilder:default=Report
  // +optional
  enforcement?: Enforcement;
}

// GPUBudgetStatus is what the controller observed.
export interface GPUBudgetStatus {
  // allocatedGPUs is the sum of the GPUs the counted pods hold (the scheduler's rule per pod).
  // +optional
  allocatedGPUs?: int64;

  // podCount is the number of counted pods that hold at least one GPU.
  // +optional
  podCount?: int32;

  // observedGeneration is the spec generation this status was computed for.
  // +optional
  observedGeneration?: int64;

  // averageUtilization is the mean GPU utilization (percent) of the counted pods' GPUs over the last
  // window, from DCGM exporter metrics. Present only when the operator runs with --prometheus-url.
  // +kubebuilder:validation:Minimum=0
  // +kubebuilder:validation:Maximum=100
  // +optional
  averageUtilization?: int32;

  // idleGPUs is how many of those GPUs were nearly unused (below the idle threshold) over the window.
  // Present only when the operator runs with --prometheus-url.
  // +optional
  idleGPUs?: int32;

  // conditions: Ready is True (WithinBudget) or False (BudgetExceeded), with a message like "6/4 GPUs".
  // +listType=map
  // +listMapKey=type
  // +optional
  conditions?: Condition[];
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=gb
// +kubebuilder:printcolumn:name="Max",type=integer,JSONPath=".spec.maxGPUs"
// +kubebuilder:printcolumn:name="Allocated",type=integer,JSONPath=".status.allocatedGPUs"
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="Enforcement",type=string,JSONPath=".spec.enforcement",priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=".metadata.creationTimestamp"
// GPUBudget is a GPU budget for the pods of one namespace.
export interface GPUBudget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // spec is the budget.
  // +required
  spec: GPUBudgetSpec;
  // status is what the controller observed.
  // +optional
  status?: GPUBudgetStatus;
}

// +kubebuilder:object:root=true
// GPUBudgetList contains a list of GPUBudget.
export interface GPUBudgetList {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMeta;
  items: GPUBudget[];
}
