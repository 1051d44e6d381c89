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
// Queue: admit them held by a scheduling gate, and release them in order (priority, then arrival) as GPUs free up.
// +kubebuilder:validation:Enum=Report;Deny;Queue
export type Enforcement = "Report" | "Deny" | "Queue";

// GPUBudgetResource is one extended resource a budget counts, and what one unit of it is worth in GPUs.
export interface GPUBudgetResource {
  // name is the extended resource: nvidia.com/gpu, amd.com/gpu, a MIG profile such as nvidia.com/mig-1g.10gb, ...
  // +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$`
  // +kubebuilder:validation:MaxLength=253
  // +kubebuilder:validation:XValidation:rule="!self.startsWith('kubernetes.io/') && !self.contains('.kubernetes.io/') && !self.startsWith('requests.')",message="name must be an extended resource such as nvidia.com/gpu, not a native kubernetes.io resource"
  name: string;

  // weight is how many GPUs one unit of this resource counts as, a decimal written as a string:
  // "1" for a whole GPU, "0.125" (or "125m") for a MIG slice that is an eighth of one. Default "1".
  // +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]{1,3})?|[0-9]+m)$`
  // +kubebuilder:validation:MaxLength=16
  // +optional
  weight?: string;
}

// GPUBudgetDeviceClass is one DeviceClass whose devices a budget counts when pods ask for them through Dynamic
// Resource Allocation (ResourceClaims, directly or from a ResourceClaimTemplate), and what one device of it
// is worth in GPUs. A list of its own rather than a deviceClassName on resources entries: a resources name is
// an extended resource (a domain-prefixed name counted per container) while a DeviceClass is a cluster object
// counted per claim, by other rules (ResourceQuota's <class>.deviceclass.resource.k8s.io/devices); one
// entry holding either would need a "one of" rule, and the two names are validated differently.
export interface GPUBudgetDeviceClass {
  // name is the DeviceClass, e.g. gpu.nvidia.com.
  // +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
  // +kubebuilder:validation:MaxLength=253
  name: string;

  // weight is how many GPUs one device of this class counts as, a decimal written as a string:
  // "1" for a whole GPU, "0.125" (or "125m") for a partition that is an eighth of one. Default "1".
  // +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]{1,3})?|[0-9]+m)$`
  // +kubebuilder:validation:MaxLength=16
  // +optional
  weight?: string;
}

// GPUBudgetReservation holds GPUs for a pod this budget admitted that the operator's caches may not
// have seen yet, so that pods admitted at the same moment, by any webhook replica, see each other.
export interface GPUBudgetReservation {
  // pod is the name of the admitted pod, or of the admitted ResourceClaim (then named "resourceclaim/<name>"),
  // or "grant/<replica>" for room a webhook replica took in advance to admit pods from without a write
  // (then podUID names the grant); every other replica counts a grant in full. "want/<replica>" (0 GPUs)
  // is a replica's request that the grants be given back now.
  pod: string;
  // podUID is its uid (the claim's, for a claim). A claim's reservation is kept until it expires: the
  // high-water mark below follows the Pod cache only.
  podUID: string;
  // podResourceVersion is the pod's resourceVersion before an update that made it hold more (a
  // relabel into this budget, a resize); empty for a create. The reservation is released on a replica
  // once its cache holds a later version of the pod.
  // +optional
  podResourceVersion?: string;
  // milliGPUs is what was reserved, in thousandths of a GPU.
  // +kubebuilder:validation:Minimum=0
  milliGPUs: int64;
  // expiresAt is when the reservation stops counting at the latest (for a pod that was never created).
  expiresAt: string;
}

// GPUBudgetGPUHours is a budget of GPU time over a window.
export interface GPUBudgetGPUHours {
  // limit is the GPU-hours the window allows, a decimal written as a string: "500", "0.5".
  // +kubebuilder:validation:Pattern=`^[0-9]+(\.[0-9]{1,3})?$`
  // +kubebuilder:validation:MaxLength=16
  limit: string;

  // window is rolling, a whole number of hours up to 744 (31 days) such as "168h" (the ledger keeps
  // GPU time by the hour, so the window moves by the hour), or a calendar period in UTC: "daily",
  // "weekly" (from Monday) or "monthly".
  // +kubebuilder:validation:Pattern=`^([1-9][0-9]{0,2}h|daily|weekly|monthly)$`
  // +kubebuilder:validation:MaxLength=8
  // +kubebuilder:validation:XValidation:rule="!self.endsWith('h') || int(self.substring(0, self.size() - 1)) <= 744",message="a rolling window is at most 744h (31 days); use monthly for longer"
  window: string;

  // warningPercent is the share of limit at which the GPUHoursAvailable condition turns to
  // NearLimit and a GPUHoursWarning event is recorded. Default 80.
  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:validation:Maximum=100
  // +kubebuilder:default=80
  // +optional
  warningPercent?: int32;
}

// GPUBudgetGPUHoursPeriod is the GPU time of finished pods charged to one hour (rolling windows) or one
// calendar period.
export interface GPUBudgetGPUHoursPeriod {
  // start is when the hour or period starts.
  start: string;
  // milliGPUSeconds is the GPU time charged to it, in thousandths of a GPU times seconds (exact: pod
  // times are whole seconds and GPUs whole thousandths).
  // +kubebuilder:validation:Minimum=0
  milliGPUSeconds: int64;
}

// GPUBudgetGPUHoursStatus is the GPU-hour ledger and what it adds up to. It lives in the budget's status
// because a status write is atomic: the hours a finished pod adds and its uid in recordedPods are
// written together, with the budget's resourceVersion as precondition, so a pod is charged once, by
// whichever leader writes first. It grows with the hours of the window (at most 745 periods) and with
// the finished pods that still exist (a Job's pods until they are deleted), not with the pods ever run.
export interface GPUBudgetGPUHoursStatus {
  // usedGPUHours is the GPU time used in the current window when observedAt was written: finished pods
  // (periods) plus the running pods up to then, a decimal with 3 places.
  usedGPUHours: string;
  // remainingGPUHours is limit minus usedGPUHours, never below 0.
  remainingGPUHours: string;
  // windowStart is when the current window starts.
  windowStart: string;
  // observedAt is when usedGPUHours was computed.
  observedAt: string;
  // periods is the ledger: the GPU time of finished pods, by hour or calendar period, inside the window.
  // +listType=map
  // +listMapKey=start
  // +kubebuilder:validation:MaxItems=745
  // +optional
  periods?: GPUBudgetGPUHoursPeriod[];
  // recordedPods are the uids of finished pods whose time is in periods, kept while the pod exists so
  // that it is never charged twice; a uid goes once the API server no longer has the pod.
  // +listType=set
  // +optional
  recordedPods?: string[];
}

// GPUBudgetRecentUsage is a cohort member's recent GPU use: GPU time with a half-life of one hour (as
// Kueue's usageHalfLifeTime and KAI's usage decay). When several members' pods wait to borrow the same
// free GPUs, the member with less of it per GPU of maxGPUs goes first.
export interface GPUBudgetRecentUsage {
  // milliGPUSeconds is the GPU time the budget's pods held, in thousandths of a GPU times seconds, each
  // second weighted by 2^(-age/1h), as of at. Since then the budget has held status.allocatedMilliGPUs:
  // the figure now is milliGPUSeconds·2^(-Δt/1h) + allocatedMilliGPUs·(1h/ln 2)·(1 - 2^(-Δt/1h)), and the
  // gauge gpubudget_recent_usage_gpu_hours shows it.
  // +kubebuilder:validation:Minimum=0
  milliGPUSeconds: int64;
  // at is when milliGPUSeconds was computed: the last time what the budget holds changed.
  at: string;
}

// GPUBudgetReclaim is how a borrowing budget's pods give GPUs back to a lender of its cohort.
export interface GPUBudgetReclaim {
  // minRuntime is how long a pod runs on borrowed GPUs before a lender may reclaim them (evict it, through
  // the Eviction API, so PodDisruptionBudgets hold), counted from the pod's start: a Go duration such as
  // "10m". Default "0s": reclaimed at once. Kueue has no such delay.
  // +kubebuilder:validation:Pattern=`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$|^0$`
  // +kubebuilder:validation:MaxLength=32
  // +kubebuilder:default="0s"
  // +optional
  minRuntime?: string;
}

// GPUBudgetSpec caps the GPUs the pods and ResourceClaims of one namespace (or those a selector picks in it) may hold.
// +kubebuilder:validation:XValidation:rule="!self.resourceName.startsWith('kubernetes.io/') && !self.resourceName.contains('.kubernetes.io/') && !self.resourceName.startsWith('requests.')",message="resourceName must be an extended resource such as nvidia.com/gpu, not a native kubernetes.io resource",fieldPath=".resourceName"
export interface GPUBudgetSpec {
  // maxGPUs is the most GPUs the selected pods may hold together.
  // +kubebuilder:validation:Minimum=0
  maxGPUs: int64;

  // selector picks the pods and ResourceClaims (by their own labels; a claim made from a template carries
  // the template's labels) that count against this budget; all of the namespace when absent.
  // +optional
  selector?: LabelSelector;

  // resourceName is the extended resource counted when resources is empty: nvidia.com/gpu, amd.com/gpu,
  // a MIG profile such as nvidia.com/mig-1g.5gb, ... It cannot change: create another budget for another resource.
  // +kubebuilder:default="nvidia.com/gpu"
  // +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$`
  // +kubebuilder:validation:MaxLength=253
  // +kubebuilder:validation:XValidation:rule="self == oldSelf",message="resourceName is immutable; create another budget for another resource"
  // +optional
  resourceName?: string;

  // resources lists several extended resources counted together, each with a weight in GPUs, e.g.
  // [{name: nvidia.com/gpu}, {name: nvidia.com/mig-1g.10gb, weight: "0.125"}], so a Deny budget on whole
  // GPUs cannot be bypassed by asking for MIG slices. When set, resourceName is not used.
  // +listType=map
  // +listMapKey=name
  // +kubebuilder:validation:MaxItems=32
  // +optional
  resources?: GPUBudgetResource[];

  // deviceClasses lists the DeviceClasses whose devices count too, each with a weight in GPUs, e.g.
  // [{name: gpu.nvidia.com}], so a Deny budget cannot be bypassed by asking for GPUs through a
  // ResourceClaim. Claims are counted by ResourceQuota's rules for <class>.deviceclass.resource.k8s.io/devices:
  // each existing claim of the namespace (the claim is the unit, however many pods share it) at the
  // devices it asks for: an exact count as asked, allocationMode All at 32 (the most one claim can be
  // allocated), firstAvailable at its largest alternative. Claims the scheduler makes for a pod's extended
  // resource (DRA extended resources) are not counted again: the pod's resources are.
  // +listType=map
  // +listMapKey=name
  // +kubebuilder:validation:MaxItems=32
  // +optional
  deviceClasses?: GPUBudgetDeviceClass[];

  // enforcement is Report (count and report), Deny (also refuse pods that would exceed the cap) or Queue
  // (hold every pod it counts behind the scheduling gate <group>/<kind>-queue, and release them in order
  // while they fit: higher priority first, then arrival; a pod group or a Job's pods go together).
  // +kubebuilder:default=Report
  // +optional
  enforcement?: Enforcement;

  // cohort names a group of budgets, in any namespace, that lend each other their unused GPUs (Kueue's
  // cohort; maxGPUs is the nominal quota). A Queue budget may borrow what the others do not use, up to
  // borrowingLimit (borrowers with less recent GPU use, status.recentUsage, first), and gets its own GPUs
  // back by reclaim when it needs them. A Deny or Report budget
  // lends but never borrows: a pod it refuses is not retried when GPUs free up, and its pods are never
  // held, so it takes lent GPUs back at once (see internal/cohort). Unset: the budget stands alone.
  // +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
  // +kubebuilder:validation:MaxLength=63
  // +optional
  cohort?: string;

  // borrowingLimit is the most GPUs above maxGPUs a Queue budget of a cohort may hold, borrowed from the
  // others' unused GPUs; no limit when absent (as Kueue). Not used without a cohort, or by Deny and Report budgets.
  // +kubebuilder:validation:Minimum=0
  // +optional
  borrowingLimit?: int64;

  // lendingLimit is the most of its unused maxGPUs this budget lends to its cohort; the rest,
  // maxGPUs - lendingLimit, is its own whatever the others do. All of maxGPUs when absent (as Kueue).
  // Kueue refuses a lendingLimit above the nominal quota; here one above maxGPUs simply lends all of it:
  // a new CEL rule on the spec would judge existing budgets too (kbts manifests --breaking-since).
  // +kubebuilder:validation:Minimum=0
  // +optional
  lendingLimit?: int64;

  // reclaim says how this budget's pods running on borrowed GPUs are reclaimed when a lender needs them.
  // +optional
  reclaim?: GPUBudgetReclaim;

  // gpuHours caps the GPU time the selected pods may use in a window, on top of maxGPUs: GPUs held ×
  // the time from the pod's start (status.startTime) to its end, weights applied. When the window's
  // hours are spent the budget acts by its enforcement: Deny refuses new pods, Queue keeps them waiting,
  // Report says so. Running pods are never stopped.
  // +optional
  gpuHours?: GPUBudgetGPUHours;
}

// GPUBudgetStatus is what the controller observed.
export interface GPUBudgetStatus {
  // allocatedGPUs is the sum of the GPUs the counted pods and claims hold (the scheduler's rule per pod,
  // each resource times its weight; each claim's devices times its class's weight; rounded up to a whole GPU). Counted pods are those the selector picks
  // that are not Succeeded or Failed, by ResourceQuota's rule: a pod in phase Unknown still counts (its
  // node may still run it), and a terminating pod counts until its deletionTimestamp plus
  // deletionGracePeriodSeconds has passed, after which it no longer does (a pod stuck terminating on a
  // lost node frees the budget).
  // +optional
  allocatedGPUs?: int64;

  // allocatedMilliGPUs is the same sum in thousandths of a GPU, not rounded: what the budget-full admission
  // policy (config/webhook/budget_full_policy.yaml) compares with maxGPUs to refuse pods in kube-apiserver
  // (with fullAtGeneration).
  // +kubebuilder:validation:Minimum=0
  // +optional
  allocatedMilliGPUs?: int64;

  // queuedGPUs is how many GPUs the pods waiting in a Queue budget's line ask for (rounded up).
  // +optional
  queuedGPUs?: int64;

  // queuedPods is how many pods wait in a Queue budget's line.
  // +optional
  queuedPods?: int32;

  // borrowedGPUs is how many GPUs above maxGPUs the budget's pods hold now, borrowed from its cohort
  // (rounded up). Absent for a budget without a cohort.
  // +optional
  borrowedGPUs?: int64;

  // lentGPUs is how many of its unused lendable GPUs the cohort's borrowers use now: the cohort's
  // borrowed GPUs, taken from its lenders in name order (a cohort pools what its members lend, so which
  // lender lent a GPU is a convention). Absent for a budget without a cohort.
  // +optional
  lentGPUs?: int64;

  // recentUsage is the budget's recent GPU use, which orders the borrowers of its cohort (see
  // GPUBudgetRecentUsage). Absent for a budget without a cohort.
  // +optional
  recentUsage?: GPUBudgetRecentUsage;

  // podCount is the number of counted pods that hold at least one GPU.
  // +optional
  podCount?: int32;

  // claimCount is the number of counted ResourceClaims that ask for at least one device of deviceClasses.
  // +optional
  claimCount?: int32;

  // uncountedClaims is how many selected ResourceClaims ask for devices of no class in deviceClasses
  // (Dynamic Resource Allocation the budget does not count): list their classes in deviceClasses if they
  // are GPUs. Absent when there are none.
  // +optional
  uncountedClaims?: int32;

  // reservations are GPUs held for pods (and ResourceClaims) admitted under a Deny budget that the
  // writer's cache had not seen yet; written by the webhooks with optimistic concurrency, released once
  // seen (see settledPodResourceVersion and settledClaimResourceVersion) and dropped at the latest once
  // expired.
  // +optional
  reservations?: GPUBudgetReservation[];

  // settledPodResourceVersion is the newest Pod resourceVersion at which a released reservation's pod was
  // seen: a replica decides an admission only once its Pod cache has passed it, so it counts every
  // released pod from its cache.
  // +optional
  settledPodResourceVersion?: string;

  // settledClaimResourceVersion is settledPodResourceVersion for ResourceClaims: the newest claim
  // resourceVersion at which a released reservation's claim was seen, which a replica's ResourceClaim
  // cache must have passed before it decides an admission.
  // +optional
  settledClaimResourceVersion?: string;

  // fullAtGeneration is the metadata.generation of a Deny budget that its last status write found full
  // counting its reservations: the pods its writer's caches count plus those reserved (admitted, not yet
  // seen) leave no room, and no grant holds room. Every status write sets it so, or removes it. While it
  // equals metadata.generation the budget-full admission policy refuses the budget's GPU pods in
  // kube-apiserver, as it does once allocatedMilliGPUs reaches maxGPUs: the rest of a burst that fills
  // the budget is refused there from the write that fills it on, not a controller's count later.
  // +kubebuilder:validation:Minimum=1
  // +optional
  fullAtGeneration?: int64;

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

  // gpuHours is the GPU-hour ledger of a budget with spec.gpuHours.
  // +optional
  gpuHours?: GPUBudgetGPUHoursStatus;

  // conditions: Ready is True (WithinBudget) or False (BudgetExceeded), with a message like "6/4 GPUs".
  // A Deny budget also has Enforcing: True (NamespaceLabelled) once the operator has labelled its
  // namespace so that the Pod webhook is called for its pods, False (NamespaceNotLabelled) until then,
  // when pods are admitted unchecked. Wait for it before relying on refusals.
  // A budget with spec.gpuHours has GPUHoursAvailable: True (WithinLimit, or NearLimit past
  // warningPercent) or False (Spent) once the window's hours are used.
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
// +kubebuilder:printcolumn:name="Queued",type=integer,JSONPath=".status.queuedGPUs"
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="Enforcement",type=string,JSONPath=".spec.enforcement",priority=1
// +kubebuilder:printcolumn:name="GPU-Hours",type=string,JSONPath=".status.gpuHours.usedGPUHours",priority=1
// +kubebuilder:printcolumn:name="Cohort",type=string,JSONPath=".spec.cohort",priority=1
// +kubebuilder:printcolumn:name="Borrowed",type=integer,JSONPath=".status.borrowedGPUs",priority=1
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
