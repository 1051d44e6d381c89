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
import { describeBudget } from "../../gpu/claims.js";
import { formatGPUs } from "../../gpu/podgpus.js";
import { BudgetStatusWrites } from "../../gpu/status_writes.js";
import {
  reservationName,
  type SettledMarks,
  setSettledMarks,
  settledMarks,
  type UsageTracker,
} from "../../gpu/usage.js";

/**
 * Atomic admission for Deny budgets.
 *
 * The webhook decides from an informer cache, so pods admitted at nearly the same moment (by one
 * replica or several) would not see each other, and a burst could overrun the cap. ResourceQuota
 * closes that hole by writing the quota's usage on the API server, with optimistic concurrency, before
 * it admits; this does the same on the budget itself. An admission under a Deny budget adds a
 * reservation (pod uid, GPUs, expiry) to status.reservations with an update that carries the budget's
 * resourceVersion as a precondition. Two replicas admitting at once cannot both win: the loser gets a
 * conflict, reads the budget again (now with the winner's reservation) and decides again. So
 *
 *     admit  <=>  counted (this replica's cache) + reserved + this pod  <=  cap
 *
 * holds on the budget's latest version at the moment of the write.
 *
 * What it costs, and why it is bounded. A reservation is only needed until the caches see the pod.
 * Each write releases the reservations whose pods the writer's cache has seen, and records the newest
 * version it saw them at in status.settledPodResourceVersion (a high-water mark; a ResourceClaim's go
 * in status.settledClaimResourceVersion); a replica decides only once its own caches have passed the
 * marks (UsageTracker.waitForSettled, normally already true: the same watch stream brought the writer
 * there), so a released pod or claim is counted from every cache, never nowhere. The list therefore
 * holds only pods and claims admitted and not yet seen (the ones in flight: a watch's delay times the
 * admission rate), however many the budget admitted within the TTL, and each write costs what
 * ResourceQuota's does up to that small list. A reservation whose pod never appears (another
 * admission step refused it) counts until expiresAt (--reservation-ttl, default 30s).
 *
 * Group commit: within one replica, admissions to one budget queue behind a single write in flight;
 * when it lands, the next write decides every waiting admission in order and carries all that fit, so
 * a burst costs one write per round trip rather than one per pod, and no conflicts among its own pods.
 * The controller's status writes take turns with these (gpu/status_writes.ts): within one replica the
 * two never conflict, and each starts from the version the other wrote.
 * Refusals need no write at all. If the decision cannot be made before the deadline (a long queue,
 * repeated conflicts) the pod is refused with a message to try again: a budget that says Deny must not
 * fail open on its own slowness.
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
  /** This replica's writers of budget status, taking turns with the controller's (statusWritesFor(mgr)). */
  writes?: BudgetStatusWrites<GPUBudget>;
}

/** What one admission asks of one budget. */
export interface Claim {
  /** What is admitted, as refusals name it: a pod (the default) or a ResourceClaim. */
  kind?: "pod" | "resourceclaim";
  /** Its name; a ResourceClaim's reservation records it as "resourceclaim/<name>". */
  pod: string;
  /** Its uid (a ResourceClaim's, for a claim). */
  podUID: string;
  /** For an update: the pod's resourceVersion before it. */
  podResourceVersion?: string;
  milliGPUs: number;
  /** Dry-run requests are checked but reserve nothing (the webhook's sideEffects is NoneOnDryRun). */
  dryRun: boolean;
}

/** An admission waiting for its budget's next write. */
interface Waiting {
  claim: Claim;
  deadline: number;
  admit: () => void;
  refuse: (err: unknown) => void;
}

export class BudgetReservations {
  /** Per budget: the admissions waiting for the next write (present while a writer drains them). */
  private readonly waiting = new Map<string, Waiting[]>();
  /** The newest version of each budget this replica wrote or read, and the turns of its writers. */
  private readonly writes: BudgetStatusWrites<GPUBudget>;

  constructor(private readonly options: ReservationOptions) {
    this.writes = options.writes ?? new BudgetStatusWrites<GPUBudget>();
  }

  /** Admits `claim` under the Deny budget `key` by reserving its GPUs, or throws AdmissionDenied. */
  async reserve(key: ObjectKey, claim: Claim): Promise<void> {
    const id = `${key.namespace}/${key.name}`;
    const deadline = Date.now() + (this.options.deadlineMs ?? 7_000);
    if (this.waiting.has(id)) {
      // A write is in flight. A claim that does not fit even without the admissions it carries is
      // refused now rather than after that round trip: what this replica knows can only grow by them.
      const budget = this.writes.newest(id, await this.options.client.get(GPUBudgetKind, key));
      if (this.options.tracker.passedSettled(key.namespace ?? "", settledMarks(budget.status))) {
        const { kept, counted, reserved } = this.measure(key, budget, Date.now());
        if (
          !kept.some(sameChange(claim)) &&
          counted + reserved + claim.milliGPUs > budget.spec.maxGPUs * 1000
        ) {
          throw new AdmissionDenied(
            refusal(budget, describeBudget(budget.spec), counted, reserved, claim.milliGPUs, claim.kind),
          );
        }
      }
    }
    return new Promise<void>((admit, refuse) => {
      const queue = this.waiting.get(id);
      if (queue) {
        queue.push({ claim, deadline, admit, refuse });
        return;
      }
      this.waiting.set(id, [{ claim, deadline, admit, refuse }]);
      void this.drain(key, id);
    });
  }

  /** Commits the waiting admissions of one budget, a batch per write, until none is left. */
  private async drain(key: ObjectKey, id: string): Promise<void> {
    for (;;) {
      const batch = this.waiting.get(id) ?? [];
      if (batch.length === 0) {
        this.waiting.delete(id);
        return;
      }
      this.waiting.set(id, []);
      try {
        await this.commit(key, id, batch);
      } catch (err) {
        for (const w of batch) w.refuse(err);
      }
    }
  }

  /**
   * What counts against the budget on this replica at `now`: its cache's usage, the live reservations
   * it has not released (settle), and of those the GPUs its cache has not seen yet.
   */
  private measure(
    key: ObjectKey,
    budget: GPUBudget,
    now: number,
  ): { kept: GPUBudgetReservation[]; settled: SettledMarks; counted: number; reserved: number } {
    const { tracker } = this.options;
    const { kept, settled } = tracker.settle(
      budget.status?.reservations ?? [],
      settledMarks(budget.status),
      now,
    );
    const counted = tracker.usage(key.namespace ?? "", key.name, now)?.allocatedMilli ?? 0;
    let reserved = 0;
    for (const r of kept) if (!tracker.hasSeen(r.podUID, r.podResourceVersion)) reserved += r.milliGPUs;
    return { kept, settled, counted, reserved };
  }

  /**
   * Decides each admission of `batch` in order against the budget's latest version and writes the ones
   * that fit in one status update; refusals and dry runs are answered at once, admissions after the write.
   */
  private async commit(key: ObjectKey, id: string, batch: Waiting[]): Promise<void> {
    const { client, tracker } = this.options;
    const namespace = key.namespace ?? "";
    let budget = this.writes.newest(id, await client.get(GPUBudgetKind, key));
    let open = batch;
    while (open.length > 0) {
      const wait = Math.max(...open.map((w) => w.deadline)) - Date.now();
      // Normally the caches have passed the marks already: decide without yielding to the event loop.
      const marks = settledMarks(budget.status);
      if (
        !tracker.passedSettled(namespace, marks) &&
        !(await tracker.waitForSettled(namespace, marks, wait))
      ) {
        for (const w of open) w.refuse(busy(id, w.claim));
        return;
      }
      // Waiting for the marks holds up no other writer: only the decision and its write take a turn.
      const next = await this.writes.exclusive(id, () => this.attempt(key, id, budget, open));
      if (!next) return;
      ({ budget, open } = next);
    }
  }

  /**
   * One decision and write of `open` against the newest version of the budget this replica knows (the
   * controller may have written since `budget` was read). Returns what to try again after a conflict,
   * or after a newer version whose marks this replica's caches have not passed; undefined when done.
   */
  private async attempt(
    key: ObjectKey,
    id: string,
    read: GPUBudget,
    open: Waiting[],
  ): Promise<{ budget: GPUBudget; open: Waiting[] } | undefined> {
    const { client, apiReader, tracker, ttlMs } = this.options;
    const budget = this.writes.newest(id, read);
    if (budget !== read && !tracker.passedSettled(key.namespace ?? "", settledMarks(budget.status)))
      return { budget, open };
    const now = Date.now();
    const measured = this.measure(key, budget, now);
    const { kept, settled, counted } = measured;
    let reserved = measured.reserved;
    const cap = budget.spec.maxGPUs * 1000;
    const unit = describeBudget(budget.spec);
    const adding: GPUBudgetReservation[] = [];
    const writing: Waiting[] = [];
    for (const w of open) {
      const { claim } = w;
      // The same pod and change already reserved: a retried request (e.g. after a replica died).
      const same = sameChange(claim);
      if (kept.some(same) || adding.some(same)) {
        w.admit();
        continue;
      }
      if (counted + reserved + claim.milliGPUs > cap) {
        w.refuse(new AdmissionDenied(refusal(budget, unit, counted, reserved, claim.milliGPUs, claim.kind)));
        continue;
      }
      if (claim.dryRun) {
        w.admit();
        continue;
      }
      if (Date.now() > w.deadline) {
        w.refuse(busy(id, claim));
        continue;
      }
      const reservation: GPUBudgetReservation = {
        pod: reservationName(claim.kind ?? "pod", claim.pod),
        podUID: claim.podUID,
        milliGPUs: claim.milliGPUs,
        expiresAt: new Date(now + ttlMs).toISOString(),
      };
      if (claim.podResourceVersion) reservation.podResourceVersion = claim.podResourceVersion;
      reserved += claim.milliGPUs;
      adding.push(reservation);
      writing.push(w);
    }
    if (writing.length === 0) return undefined;
    const status = { ...budget.status, reservations: [...kept, ...adding] };
    setSettledMarks(status, settled);
    try {
      const written = await client.status().update(GPUBudgetKind, { ...budget, status });
      this.writes.record(id, written);
      for (const w of writing) w.admit();
      return undefined;
    } catch (err) {
      if (!isConflict(err)) throw err;
      const later = Date.now();
      const still = writing.filter((w) => {
        if (later <= w.deadline) return true;
        w.refuse(busy(id, w.claim));
        return false;
      });
      if (still.length === 0) return undefined;
      const fresh = await apiReader.get(GPUBudgetKind, key);
      this.writes.record(id, fresh);
      return { budget: fresh, open: still };
    }
  }
}

/** Whether a reservation is for the same pod (or claim) and change as `claim`. */
function sameChange(claim: Claim): (r: GPUBudgetReservation) => boolean {
  return (r) =>
    r.podUID === claim.podUID && (r.podResourceVersion ?? "") === (claim.podResourceVersion ?? "");
}

function busy(id: string, claim: Claim): AdmissionDenied {
  return new AdmissionDenied(
    `${claim.kind ?? "pod"} denied: GPUBudget ${id} is busy with other admissions; could not reserve ${formatGPUs(claim.milliGPUs)} GPUs in time, try again`,
  );
}

/** The refusal: the budget, its cap, what is in use (counted and reserved) and what the pod (or claim) asked for. */
export function refusal(
  budget: GPUBudget,
  unit: string,
  countedMilli: number,
  reservedMilli: number,
  askedMilli: number,
  kind: Claim["kind"] = "pod",
): string {
  const inUse = countedMilli + reservedMilli;
  const max = budget.spec.maxGPUs;
  const what = kind === "resourceclaim" ? "claim" : "pod";
  return `${kind} denied: GPUBudget ${budget.metadata?.namespace}/${budget.metadata?.name} allows ${max} ${unit}; ${formatGPUs(inUse)} in use (${formatGPUs(countedMilli)} allocated, ${formatGPUs(reservedMilli)} reserved), this ${what} asks for ${formatGPUs(askedMilli)} (${formatGPUs(inUse + askedMilli)}/${max})`;
}
