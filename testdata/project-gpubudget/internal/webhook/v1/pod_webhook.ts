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

import { hostname } from "node:os";
import {
  type AdmissionRequest,
  type CustomValidator,
  type Manager,
  Pod,
  webhookManagedBy,
} from "@kbts/runtime";
import { GPUBudgetKind } from "../../../api/v1alpha1/zz_generated.kinds.js";
import { labelFull, statusWritesFor, usageTrackerFor } from "../../controller/gpubudget_controller.js";
import { ResourceClaimKind } from "../../gpu/claims.js";
import { budgetResources, isCounted, podMilliGPUs, selectorMatches } from "../../gpu/podgpus.js";
import { type BudgetCheckOptions, checkBudgets } from "./budget_check.js";
import { PodQueueDefaulter } from "./pod_queue.js";
import { BudgetReservations, type GrantOptions } from "./reservations.js";
import { ResourceClaimCustomValidator } from "./resourceclaim_webhook.js";

// Pods are checked on create and on update: a relabel can move a running pod under a budget's
// selector, and an in-place resize (the pods/resize subresource) can make it hold more. Each is
// checked as a create would be, for what it adds.
// sideEffects=NoneOnDryRun: an admission under a Deny budget writes a reservation on the budget
// (reservations.ts), except for dry-run requests, which are checked and reserve nothing.
// timeoutSeconds=10 (Kubernetes' default): a timeout fails open, so a burst on a busy API server must
// not hit it; a Deny decision that cannot be made within 7s is refused instead (reservations.ts).
// failurePolicy=ignore: if the operator is down, pods are admitted and the
// controller reports the overrun afterwards (and the GPUBudgetWebhookUnreachable alert says
// enforcement is off). A GPU budget must never be able to stop a cluster.
// config/webhook/pod_namespace_selector_patch.yaml adds the namespaceSelector (markers cannot express
// it) that leaves kube-system and the operator's own namespace alone.
// +kubebuilder:webhook:path=/validate--v1-pod,mutating=false,failurePolicy=ignore,sideEffects=NoneOnDryRun,groups="",resources=pods;pods/resize,verbs=create;update,versions=v1,name=vpod-v1.kb.io,admissionReviewVersions=v1,timeoutSeconds=10

/** The kubelet's annotation on the API server's copy of a static pod. */
const MIRROR_POD_ANNOTATION = "kubernetes.io/config.mirror";

/** How long a reservation counts at most (--reservation-ttl): far longer than any cache's watch delay. */
export const DEFAULT_RESERVATION_TTL_MS = 30_000;

/**
 * Room a replica takes in advance on a Deny budget (reservations.ts, "Grants"): while 2 GPUs or more are
 * left, held for 3 s (or until another replica asks for it). Measured with bench/gpubudget --vs-quota (30
 * namespaces filled past a cap of 50, one replica): 8 GPUs and 1 s made 714 budget status writes a round
 * and created pods at 0.71x a ResourceQuota's rate; these made 331-335, at 0.83-0.93x. The last GPU of a
 * budget is decided with a write.
 */
export const DEFAULT_GRANTS: Omit<GrantOptions, "replica"> = { minRoomMilli: 2_000, useMs: 3_000 };

export type PodValidatorOptions = BudgetCheckOptions;

/**
 * Refuses a pod whose GPUs would push a Deny budget of its namespace past its cap; Report budgets only
 * warn. Usage is read in constant time from the UsageTracker (kept from the Pod informer's events), and
 * a Deny admission reserves its GPUs on the budget first (reservations.ts), so a burst of pods, through
 * any number of webhook replicas, cannot overrun the cap.
 */
export class PodCustomValidator implements CustomValidator<Pod> {
  constructor(private readonly options: PodValidatorOptions) {}

  async validateCreate(pod: Pod, req?: AdmissionRequest<Pod>): Promise<string[]> {
    return this.check(undefined, pod, req?.dryRun === true);
  }

  async validateUpdate(oldPod: Pod, pod: Pod, req?: AdmissionRequest<Pod>): Promise<string[]> {
    return this.check(oldPod, pod, req?.dryRun === true);
  }

  async validateDelete(): Promise<string[]> {
    return [];
  }

  /** Checks what `pod` adds to each budget of its namespace over `oldPod` (nothing, for a create). */
  private async check(oldPod: Pod | undefined, pod: Pod, dryRun: boolean): Promise<string[]> {
    const namespace = pod.metadata?.namespace;
    if (!namespace || !isCounted(pod)) return [];
    return checkBudgets(this.options, {
      namespace,
      create: oldPod === undefined,
      claim: {
        pod: pod.metadata?.name ?? "",
        podUID: pod.metadata?.uid ?? "",
        podResourceVersion: oldPod?.metadata?.resourceVersion,
        dryRun,
      },
      milliGPUsFor: (budget) => {
        const resources = budgetResources(budget.spec);
        const holds = (p: Pod | undefined) =>
          p && isCounted(p) && selectorMatches(budget.spec.selector, p.metadata?.labels)
            ? podMilliGPUs(p, resources)
            : 0;
        return holds(pod) - holds(oldPod);
      },
      // A mirror pod reflects a static pod that the kubelet runs whatever admission says: refusing it
      // would only hide that pod from the budget. It is admitted and counted, and the budget reports the
      // overrun.
      warnOnly:
        pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined
          ? "it mirrors a static pod, which runs whatever admission says"
          : undefined,
    });
  }
}

/**
 * Registers the Pod validator at /validate--v1-pod, the Pod defaulter that gates a Queue budget's pods at
 * /mutate--v1-pod (pod_queue.ts), and the ResourceClaim validator at
 * /validate-resource-k8s-io-v1-resourceclaim on the manager's webhook server; both reserve through the
 * same BudgetReservations, so pods and claims admitted at once queue behind one write per budget.
 */
export async function setupPodWebhookWithManager(
  mgr: Manager,
  options: {
    reservationTTLMs?: number;
    grants?: Omit<GrantOptions, "replica"> | false;
    /** The process's stop signal (setupSignalHandler()): grants are given back when it aborts. */
    stopping?: AbortSignal;
  } = {},
): Promise<void> {
  const client = mgr.getClient();
  const tracker = await usageTrackerFor(mgr);
  const reservations = new BudgetReservations({
    client,
    apiReader: mgr.getAPIReader(),
    tracker,
    ttlMs: options.reservationTTLMs ?? DEFAULT_RESERVATION_TTL_MS,
    writes: statusWritesFor(mgr),
    // A Deployment's pod is named by its hostname.
    grants:
      options.grants === false ? undefined : { replica: hostname(), ...(options.grants ?? DEFAULT_GRANTS) },
    stopping: options.stopping,
    // A failed patch is only a lag: the namespace controller labels the namespace from the budget's status.
    onFull: (namespace) => void labelFull(client, namespace).catch(() => {}),
  });
  // A grant another replica waits on is given back as soon as this replica's cache sees it asked for.
  (await mgr.getCache().getInformer(GPUBudgetKind)).addEventHandler((event) => {
    if (event.type !== "delete") reservations.observe(event.object);
  });
  // Sharded (--shard-ring), only the replica that owns a namespace caches its budgets and pods: the others
  // forward its admissions there. While it changes hands they are refused with "try again" (the default),
  // never decided from a cache that does not hold the namespace; without sharding this does nothing.
  webhookManagedBy(mgr, Pod)
    .withValidator(new PodCustomValidator({ client, tracker, reservations }))
    .withDefaulter(new PodQueueDefaulter(client))
    .forwardToShardOwner()
    .complete();
  webhookManagedBy(mgr, ResourceClaimKind)
    .withValidator(new ResourceClaimCustomValidator({ client, tracker, reservations }))
    .forwardToShardOwner()
    .complete();
}
