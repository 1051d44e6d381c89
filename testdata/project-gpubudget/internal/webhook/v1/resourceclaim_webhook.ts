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

import type { AdmissionRequest, CustomValidator } from "@kbts/runtime";
import { claimCountedMilli, type ResourceClaim } from "../../gpu/claims.js";
import { budgetResources } from "../../gpu/podgpus.js";
import { type BudgetCheckOptions, checkBudgets } from "./budget_check.js";

// A ResourceClaim is checked when it is created, directly or by the resourceclaim controller from a
// pod's ResourceClaimTemplate (then the pod stays Pending, and its events say why). Its spec is
// immutable, so an update adds nothing, and a pod that references an existing claim adds nothing either:
// the claim was counted when it was created. Same failure and side-effect policy as the Pod webhook.
// config/webhook/pod_namespace_selector_patch.yaml gives it the same namespaceSelector.
// +kubebuilder:webhook:path=/validate-resource-k8s-io-v1-resourceclaim,mutating=false,failurePolicy=ignore,sideEffects=NoneOnDryRun,groups=resource.k8s.io,resources=resourceclaims,verbs=create,versions=v1,name=vresourceclaim-v1.kb.io,admissionReviewVersions=v1,timeoutSeconds=10

export type ResourceClaimValidatorOptions = BudgetCheckOptions;

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
    // A claim the scheduler made for a pod's extended resources adds only what the pod does not count.
    const owner = this.options.tracker.extendedResourceClaimPod(claim);
    return checkBudgets(this.options, {
      namespace,
      claim: {
        kind: "resourceclaim",
        pod: claim.metadata?.name ?? "",
        podUID: claim.metadata?.uid ?? "",
        dryRun: req?.dryRun === true,
      },
      milliGPUsFor: (budget) =>
        claimCountedMilli(
          claim,
          {
            deviceClasses: budget.spec.deviceClasses ?? [],
            resources: budgetResources(budget.spec),
            selector: budget.spec.selector,
          },
          owner,
        ),
    });
  }

  async validateUpdate(): Promise<string[]> {
    return [];
  }

  async validateDelete(): Promise<string[]> {
    return [];
  }
}
