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

import {
  type AdmissionRequest,
  type Client,
  type CustomDefaulter,
  isNotFound,
  type Pod,
} from "@kbts/runtime";
import type { GPUBudget } from "../../../api/v1alpha1/gpubudget_types.js";
import { GPUBudgetKind } from "../../../api/v1alpha1/zz_generated.kinds.js";
import { budgetsInNamespace } from "../../controller/gpubudget_controller.js";
import { budgetResources, isCounted, podMilliGPUs, selectorMatches } from "../../gpu/podgpus.js";
import { isQueueBudget, QUEUE_GATE, QUEUED_AT_ANNOTATION } from "../../queue/queue.js";

// A pod that a Queue budget counts is created with the budget's scheduling gate, so it waits Pending
// until the operator releases it (internal/queue/queue.ts). Scheduling gates can only be set when a pod
// is created, so this runs on create only. failurePolicy=ignore: if the operator is down, pods are
// created ungated and run, and the budget reports the overrun, as a Deny budget's webhook fails open.
// reinvocationPolicy=IfNeeded: another mutating webhook that adds GPUs is seen.
// config/webhook/pod_namespace_selector_patch.yaml adds the namespaceSelector (namespaces the operator
// labelled for a Deny or Queue budget) and the matchConditions (pods asking for an extended resource).
// +kubebuilder:webhook:path=/mutate--v1-pod,mutating=true,failurePolicy=ignore,sideEffects=None,groups="",resources=pods,verbs=create,versions=v1,name=mpod-v1.kb.io,admissionReviewVersions=v1,timeoutSeconds=10,reinvocationPolicy=IfNeeded

/** Gates the pods a Queue budget of their namespace counts. */
export class PodQueueDefaulter implements CustomDefaulter<Pod> {
  constructor(private readonly client: Client) {}

  async default(pod: Pod, req?: AdmissionRequest<Pod>): Promise<void> {
    const namespace = pod.metadata?.namespace ?? req?.namespace;
    // A pod already behind the gate is not counted (it holds nothing), so it is left as it is.
    if (!namespace || !isCounted(pod)) return;
    // A pod bound by spec.nodeName skips the scheduler and cannot carry a gate: the Pod validator checks
    // it against the Queue budget as a Deny budget would (budget_check.ts).
    if (pod.spec?.nodeName) return;
    let queued = false;
    for (const key of await budgetsInNamespace(this.client, namespace)) {
      let budget: GPUBudget;
      try {
        budget = await this.client.get(GPUBudgetKind, key);
      } catch (err) {
        if (isNotFound(err)) continue;
        throw err;
      }
      if (!isQueueBudget(budget)) continue;
      if (!selectorMatches(budget.spec.selector, pod.metadata?.labels)) continue;
      if (podMilliGPUs(pod, budgetResources(budget.spec)) > 0) queued = true;
    }
    if (!queued || !pod.spec) return;
    pod.spec.schedulingGates = [...(pod.spec.schedulingGates ?? []), { name: QUEUE_GATE }];
    pod.metadata ??= {};
    pod.metadata.annotations = {
      ...pod.metadata.annotations,
      [QUEUED_AT_ANNOTATION]: new Date().toISOString(),
    };
  }
}
