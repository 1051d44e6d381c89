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
  AdmissionDenied,
  type Client,
  type CustomValidator,
  type Manager,
  Pod,
  webhookManagedBy,
} from "@kbts/runtime";
import { GPUBudgetKind } from "../../../api/v1alpha1/zz_generated.kinds.js";
import { budgetsInNamespace, DEFAULT_RESOURCE_NAME } from "../../controller/gpubudget_controller.js";
import { budgetUsage, podGPUs, selectorMatches } from "../../gpu/podgpus.js";

// Pods are checked on create only: a pod's containers' resources cannot grow afterwards (an in-place
// resize is a separate subresource this webhook does not see, and the controller still counts it).
// failurePolicy=ignore and a short timeout: if the operator is down, pods are admitted and the
// controller reports the overrun afterwards. A GPU budget must never be able to stop a cluster.
// config/webhook/pod_namespace_selector_patch.yaml adds the namespaceSelector (markers cannot express
// it) that leaves kube-system and the operator's own namespace alone.
// +kubebuilder:webhook:path=/validate--v1-pod,mutating=false,failurePolicy=ignore,sideEffects=None,groups="",resources=pods,verbs=create,versions=v1,name=vpod-v1.kb.io,admissionReviewVersions=v1,timeoutSeconds=5

/**
 * Refuses a pod whose GPUs would push a Deny budget of its namespace past its cap. Report budgets are
 * never enforced here. The count comes from the same cache and the same rule as the controller's, so
 * both agree; the controller stays the source of truth (two pods admitted at the same instant can
 * still overrun a budget together, and the budget's status then says so).
 */
export class PodCustomValidator implements CustomValidator<Pod> {
  constructor(private readonly client: Client) {}

  async validateCreate(pod: Pod): Promise<string[]> {
    const namespace = pod.metadata?.namespace;
    if (!namespace) return [];
    const keys = await budgetsInNamespace(this.client, namespace);
    if (keys.length === 0) return [];
    let pods: Pod[] | undefined;
    const warnings: string[] = [];
    for (const key of keys) {
      const budget = await this.client.get(GPUBudgetKind, key);
      const resourceName = budget.spec.resourceName ?? DEFAULT_RESOURCE_NAME;
      if (!selectorMatches(budget.spec.selector, pod.metadata?.labels)) continue;
      const wanted = podGPUs(pod, resourceName);
      if (wanted === 0) continue;
      pods ??= await this.client.list(Pod, { namespace });
      const allocated = budgetUsage(pods, { resourceName, selector: budget.spec.selector }).allocatedGPUs;
      const max = budget.spec.maxGPUs;
      if (allocated + wanted <= max) continue;
      const message = `GPUBudget ${namespace}/${key.name} allows ${max} ${resourceName}; ${allocated} allocated, this pod asks for ${wanted} (${allocated + wanted}/${max})`;
      if ((budget.spec.enforcement ?? "Report") === "Deny") {
        throw new AdmissionDenied(`pod denied: ${message}`);
      }
      warnings.push(`${message}; enforcement is Report, so the pod is admitted`);
    }
    return warnings;
  }

  async validateUpdate(): Promise<string[]> {
    return [];
  }

  async validateDelete(): Promise<string[]> {
    return [];
  }
}

/** Registers the Pod validator at /validate--v1-pod on the manager's webhook server. */
export function setupPodWebhookWithManager(mgr: Manager): void {
  webhookManagedBy(mgr, Pod).withValidator(new PodCustomValidator(mgr.getClient())).complete();
}
