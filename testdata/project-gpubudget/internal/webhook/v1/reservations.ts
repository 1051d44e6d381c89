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

import { AdmissionDenied, type Client, isConflict, type ObjectKey, type Reader } from "@kbts/runtime";
import type { GPUBudget, GPUBudgetReservation } from "../../../api/v1alpha1/gpubudget_types.js";
import { GPUBudgetKind } from "../../../api/v1alpha1/zz_generated.kinds.js";
import { budgetResources, describeResources, formatGPUs } from "../../gpu/podgpus.js";
import type { UsageTracker } from "../../gpu/usage.js";

/**
 * Atomic admission for Deny budgets.
 *
 * The webhook decides from an informer cache, so pods admitted at nearly the same moment (by one
 * replica or several) would not see each other, and a burst could overrun the cap. ResourceQuota
 * closes that hole by writing the quota's usage on the API server, with optimistic concurrency, before
 * it admits; this does the same on the budget itself. Each admission under a Deny budget appends a
 * reservation (pod uid, GPUs, expiry) to status.reservations with an update that carries the budget's
 * resourceVersion as a precondition. Two replicas admitting at once cannot both win: the loser gets a
 * conflict, reads the budget again (now with the winner's reservation) and decides again. So
 *
 *     admit  <=>  counted (this replica's cache) + reserved + this pod  <=  cap
 *
 * holds on the budget's latest version at the moment of the write.
 *
 * A reservation counts on a replica until that replica's cache has seen the pod (from then on the pod
 * is counted from the cache instead, never both) and stops counting everywhere at expiresAt. It is not
 * removed from status as soon as one cache sees the pod, because another replica's cache may not have
 * yet: dropping it then would let that replica count the pod nowhere. Expired reservations are dropped
 * by the next write (webhook or reconciler). The expiry (--reservation-ttl, default 30s) is far longer
 * than a watch's delay; it also frees GPUs reserved for a pod that another admission step refused.
 *
 * Within one replica, admissions to the same budget are serialized, so a burst costs one write per
 * admitted pod rather than a storm of conflicts; refusals need no write at all. If the decision cannot be
 * made before the deadline (a long queue, repeated conflicts) the pod is refused with a message to try
 * again: a budget that says Deny must not fail open on its own slowness.
 */
export interface ReservationOptions {
  client: Client;
  /** Reads the budget fresh after a conflict (mgr.getAPIReader()). */
  apiReader: Reader;
  tracker: UsageTracker;
  ttlMs: number;
  /**
   * How long an admission may take, queue and conflicts included, before it is refused: shorter than
   * the webhook's 10s timeout, past which the API server would admit the pod unchecked (fail open).
   */
  deadlineMs?: number;
}

/** What one admission asks of one budget. */
export interface Claim {
  pod: string;
  podUID: string;
  /** For an update: the pod's resourceVersion before it. */
  podResourceVersion?: string;
  milliGPUs: number;
  /** Dry-run requests are checked but reserve nothing (the webhook's sideEffects is NoneOnDryRun). */
  dryRun: boolean;
}

export class BudgetReservations {
  private readonly queues = new Map<string, Promise<unknown>>();
  /** The newest version of each budget this replica wrote or read, ahead of its cache. */
  private readonly latest = new Map<string, GPUBudget>();

  constructor(private readonly options: ReservationOptions) {}

  /** Admits `claim` under the Deny budget `key` by reserving its GPUs, or throws AdmissionDenied. */
  async reserve(key: ObjectKey, claim: Claim): Promise<void> {
    const id = `${key.namespace}/${key.name}`;
    const deadline = Date.now() + (this.options.deadlineMs ?? 7_000);
    const previous = this.queues.get(id) ?? Promise.resolve();
    const run = previous.then(
      () => this.reserveNow(key, claim, deadline),
      () => this.reserveNow(key, claim, deadline),
    );
    const settled = run.catch(() => undefined);
    this.queues.set(id, settled);
    void settled.then(() => {
      if (this.queues.get(id) === settled) this.queues.delete(id);
    });
    return run;
  }

  private async reserveNow(key: ObjectKey, claim: Claim, deadline: number): Promise<void> {
    const { client, apiReader, tracker, ttlMs } = this.options;
    const id = `${key.namespace}/${key.name}`;
    let budget = newest(await client.get(GPUBudgetKind, key), this.latest.get(id));
    for (;;) {
      const now = Date.now();
      const live = (budget.status?.reservations ?? []).filter((r) => Date.parse(r.expiresAt) > now);
      // The same pod and change already reserved: a retried request (e.g. after a replica died).
      if (
        live.some(
          (r) =>
            r.podUID === claim.podUID && (r.podResourceVersion ?? "") === (claim.podResourceVersion ?? ""),
        )
      )
        return;
      const resources = budgetResources(budget.spec);
      const counted = tracker.usage(key.namespace ?? "", key.name, now)?.allocatedMilli ?? 0;
      let reserved = 0;
      for (const r of live) if (!tracker.hasSeen(r.podUID, r.podResourceVersion)) reserved += r.milliGPUs;
      const cap = budget.spec.maxGPUs * 1000;
      if (counted + reserved + claim.milliGPUs > cap) {
        throw new AdmissionDenied(
          refusal(budget, describeResources(resources), counted, reserved, claim.milliGPUs),
        );
      }
      if (claim.dryRun) return;
      if (Date.now() > deadline) throw busy(id, claim);
      const reservation: GPUBudgetReservation = {
        pod: claim.pod,
        podUID: claim.podUID,
        milliGPUs: claim.milliGPUs,
        expiresAt: new Date(now + ttlMs).toISOString(),
      };
      if (claim.podResourceVersion) reservation.podResourceVersion = claim.podResourceVersion;
      try {
        const written = await client.status().update(GPUBudgetKind, {
          ...budget,
          status: { ...budget.status, reservations: [...live, reservation] },
        });
        this.latest.set(id, written);
        return;
      } catch (err) {
        if (!isConflict(err)) throw err;
        if (Date.now() > deadline) throw busy(id, claim);
        budget = await apiReader.get(GPUBudgetKind, key);
        this.latest.set(id, budget);
      }
    }
  }
}

function busy(id: string, claim: Claim): AdmissionDenied {
  return new AdmissionDenied(
    `pod denied: GPUBudget ${id} is busy with other admissions; could not reserve ${formatGPUs(claim.milliGPUs)} GPUs in time, try again`,
  );
}

/** The refusal: the budget, its cap, what is in use (counted and reserved) and what the pod asked for. */
export function refusal(
  budget: GPUBudget,
  unit: string,
  countedMilli: number,
  reservedMilli: number,
  askedMilli: number,
): string {
  const inUse = countedMilli + reservedMilli;
  const max = budget.spec.maxGPUs;
  return `pod denied: GPUBudget ${budget.metadata?.namespace}/${budget.metadata?.name} allows ${max} ${unit}; ${formatGPUs(inUse)} in use (${formatGPUs(countedMilli)} allocated, ${formatGPUs(reservedMilli)} reserved), this pod asks for ${formatGPUs(askedMilli)} (${formatGPUs(inUse + askedMilli)}/${max})`;
}

/**
 * The newer of the cache's budget and the one this replica last wrote or read. resourceVersions are
 * opaque to clients in general; etcd's are integers, and this only picks a starting point: a stale
 * pick costs a conflict and a fresh read, never a wrong admission.
 */
function newest(cached: GPUBudget, mine: GPUBudget | undefined): GPUBudget {
  if (!mine) return cached;
  const a = Number(cached.metadata?.resourceVersion);
  const b = Number(mine.metadata?.resourceVersion);
  return Number.isFinite(a) && Number.isFinite(b) && b > a ? mine : cached;
}
