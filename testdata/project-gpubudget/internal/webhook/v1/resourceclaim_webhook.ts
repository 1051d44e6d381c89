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
  type AdmissionRequest,
  type Client,
  type CustomValidator,
  isNotFound,
} from "@kbts/runtime";
import type { GPUBudget } from "../../../api/v1alpha1/gpubudget_types.js";
import { GPUBudgetKind } from "../../../api/v1alpha1/zz_generated.kinds.js";
import { budgetsInNamespace } from "../../controller/gpubudget_controller.js";
import { claimMilliGPUs, describeBudget, type ResourceClaim } from "../../gpu/claims.js";
import { formatGPUs, selectorMatches } from "../../gpu/podgpus.js";
import type { UsageTracker } from "../../gpu/usage.js";
import { admissions } from "../../metrics/metrics.js";
import type { BudgetReservations } from "./reservations.js";

// A ResourceClaim is checked when it is created, directly or by the resourceclaim controller from a
// pod's ResourceClaimTemplate (then the pod stays Pending, and its events say why). Its spec is
// immutable, so an update adds nothing, and a pod that references an existing claim adds nothing either:
// the claim was counted when it was created. Same failure and side-effect policy as the Pod webhook.
// config/webhook/pod_namespace_selector_patch.yaml gives it the same namespaceSelector.
// +kubebuilder:webhook:path=/validate-resource-k8s-io-v1-resourceclaim,mutating=false,failurePolicy=ignore,sideEffects=NoneOnDryRun,groups=resource.k8s.io,resources=resourceclaims,verbs=create,versions=v1,name=vresourceclaim-v1.kb.io,admissionReviewVersions=v1,timeoutSeconds=10

export interface ResourceClaimValidatorOptions {
  client: Client;
  tracker: UsageTracker;
  reservations: BudgetReservations;
}

/**
 * Refuses a ResourceClaim whose devices would push a Deny budget of its namespace past its cap (Report
 * budgets only warn), reserving them on the budget first like a pod (reservations.ts), keyed by the
 * claim's uid.
 */
export class ResourceClaimCustomValidator implements CustomValidator<ResourceClaim> {
  constructor(private readonly options: ResourceClaimValidatorOptions) {}

  async validateCreate(claim: ResourceClaim, req?: AdmissionRequest<ResourceClaim>): Promise<string[]> {
    const namespace = claim.metadata?.namespace;
    if (!namespace) return [];
    const keys = await budgetsInNamespace(this.options.client, namespace);
    const warnings: string[] = [];
    for (const key of keys) {
      let budget: GPUBudget;
      try {
        budget = await this.options.client.get(GPUBudgetKind, key);
      } catch (err) {
        if (isNotFound(err)) continue; // deleted since the index was read
        throw err;
      }
      if (!selectorMatches(budget.spec.selector, claim.metadata?.labels)) continue;
      const asked = claimMilliGPUs(claim, budget.spec.deviceClasses ?? []);
      if (asked <= 0) continue;
      const labels = { namespace, name: key.name };
      if ((budget.spec.enforcement ?? "Report") === "Deny") {
        try {
          await this.options.reservations.reserve(key, {
            kind: "resourceclaim",
            pod: claim.metadata?.name ?? "",
            podUID: claim.metadata?.uid ?? "",
            milliGPUs: asked,
            dryRun: req?.dryRun === true,
          });
        } catch (err) {
          admissions.inc({ ...labels, result: "denied" });
          if (err instanceof AdmissionDenied) throw err;
          // As for pods: a Deny budget that cannot be checked refuses rather than failing open.
          throw new AdmissionDenied(
            `resourceclaim denied: GPUBudget ${namespace}/${key.name} could not be checked (${err instanceof Error ? err.message : String(err)}); try again`,
          );
        }
        admissions.inc({ ...labels, result: "allowed" });
        continue;
      }
      const counted = this.options.tracker.usage(namespace, key.name)?.allocatedMilli ?? 0;
      const max = budget.spec.maxGPUs;
      if (counted + asked <= max * 1000) {
        admissions.inc({ ...labels, result: "allowed" });
        continue;
      }
      admissions.inc({ ...labels, result: "warned" });
      warnings.push(
        `GPUBudget ${namespace}/${key.name} allows ${max} ${describeBudget(budget.spec)}; ${formatGPUs(counted)} in use, this claim asks for ${formatGPUs(asked)} (${formatGPUs(counted + asked)}/${max}); enforcement is Report, so the claim is admitted`,
      );
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
