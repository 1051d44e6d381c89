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

import { randomUUID } from "node:crypto";
import { AdmissionDenied, type Client, isConflict, type ObjectKey, type Reader } from "@kbts/runtime";
import type { GPUBudget, GPUBudgetReservation } from "../../../api/v1alpha1/gpubudget_types.js";
import { GPUBudgetKind } from "../../../api/v1alpha1/zz_generated.kinds.js";
import { describeBudget } from "../../gpu/claims.js";
import { formatGPUs } from "../../gpu/podgpus.js";
import { BudgetStatusWrites } from "../../gpu/status_writes.js";
import {
  GRANT_PREFIX,
  isWant,
  reservationName,
  type SettledMarks,
  setFullAtGeneration,
  setSettledMarks,
  settledMarks,
  type UsageTracker,
  WANT_PREFIX,
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
 *
 * Grants: room taken in advance. Group commit cannot group what arrives one at a time, and a busy
 * cluster's admissions do (each namespace's pods come a few per second), so each still cost a write,
 * and a custom resource's status write costs kube-apiserver about four pod creates (schema, managed
 * fields, JSON). So a write that admits pods while the budget has room to spare (grants.minRoomMilli,
 * default 2 GPUs, after it) also takes half of that room for this replica: an entry named
 * "grant/<replica>" in status.reservations. For grants.useMs (3s) this replica admits pods from it in
 * memory, with no write; then, or at its next write, it converts the grant into what per-pod admission
 * would have written (a reservation for each pod it admitted that its caches have not seen, the seen
 * ones released up to the settled marks) and gives the rest back. Why this and not a counter or a
 * reservation object per namespace: it keeps the one invariant above, on the one object, with the
 * proofs unchanged. Every other replica counts a grant in full, as any reservation, and a pod admitted
 * from it also in its cache once seen: it overcounts, never under. So it never admits past the cap;
 * and where only that overcount would refuse a pod, it waits for the grant to be converted and decides
 * again, so the cap is also reached exactly. It does not wait out the use window: its write of an entry
 * "want/<replica>" (0 GPUs, standing WANT_MS) asks the holders, whose caches see it within a watch's
 * delay, to convert their grants at once and take no new one while it stands (observe); a holder that
 * does not answer (dead, or partitioned) is waited for until its use window ends and GRANT_CONVERT_MS
 * more. The holder counts its own grant exactly (its admitted pods not yet seen). A grant of a replica
 * that died counts until its expiresAt (use window + --reservation-ttl), like the reservations it would
 * have converted to; on SIGTERM (options.stopping) a replica converts its grants at once and takes no
 * more, so a rollout strands none. Only Deny budgets take grants; near the cap every admission writes.
 *
 * Refusals need no write at all. If the decision cannot be made before the deadline (a long queue,
 * repeated conflicts) the pod is refused with a message to try again: a budget that says Deny must not
 * fail open on its own slowness.
 *
 * Nor, once the budget is full, a webhook call. The budget-full admission policy refuses in
 * kube-apiserver what the budget's status shows full. The controller's count (allocatedMilliGPUs) lags
 * a filling budget by its reconciles, so each write here also says whether it left the budget full
 * counting its reservations (status.fullAtGeneration, gpu/usage.ts setFullAtGeneration): the rest of a
 * burst is refused from the write that fills the budget on. It is what this replica knew when it wrote,
 * never more (no grant held, whose room may be unused); the controller's next write says what it
 * knows, and removes it once a pod finishes or a reservation expires.
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
  /** Room taken in advance (see above); off when undefined. */
  grants?: GrantOptions;
  /** Aborted when the process is told to stop (setupSignalHandler()): grants are given back. */
  stopping?: AbortSignal;
  /**
   * Called with the budget's namespace when a write of this replica leaves a budget full that was not
   * (status.fullAtGeneration set): the namespace is labelled for the budget-full policy at once
   * (labelFull), not after the namespace controller's turn.
   */
  onFull?: (namespace: string) => void;
}

export interface GrantOptions {
  /** This replica's name in status ("grant/<replica>"): the pod's name in a Deployment. */
  replica: string;
  /** The room (thousandths of a GPU) a budget must have left, after a write's admissions, for a grant. */
  minRoomMilli: number;
  /** How long this replica admits from a grant before it converts it. */
  useMs: number;
}

/** Room this replica took on one budget and the pods it admitted from it. */
interface Grant {
  /** Its podUID in status.reservations. */
  id: string;
  key: ObjectKey;
  milliGPUs: number;
  /** The budget's spec when it was taken (cap and generation): any change to it ends the grant. */
  capMilli: number;
  generation?: number;
  /** When it was taken (this replica's clock): an older request for grants does not end it. */
  takenAt: number;
  useUntil: number;
  /** Admitting from it; false once a write that converts it has been decided. */
  open: boolean;
  /** What per-pod admission would have reserved for each pod admitted from it, by uid. */
  admitted: Map<string, GPUBudgetReservation>;
  usedMilli: number;
  timer?: ReturnType<typeof setTimeout>;
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
  /** Per budget: the grant this replica holds in its status. */
  private readonly own = new Map<string, Grant>();

  constructor(private readonly options: ReservationOptions) {
    this.writes = options.writes ?? new BudgetStatusWrites<GPUBudget>();
    options.stopping?.addEventListener("abort", () => this.stopGranting(), { once: true });
  }

  /** Takes no more grants and converts the ones held, while the replica still serves (its shutdown delay). */
  private stopGranting(): void {
    for (const grant of this.own.values()) {
      clearTimeout(grant.timer);
      void this.release(grant);
    }
  }

  /**
   * A budget as this replica's cache sees it (setupPodWebhookWithManager feeds its informer's events):
   * when another replica asks for the grants (a "want/" entry written since this replica's grant was
   * taken), the grant is converted now rather than at the end of its use window.
   */
  observe(budget: GPUBudget): void {
    const id = `${budget.metadata?.namespace}/${budget.metadata?.name}`;
    const grant = this.own.get(id);
    if (!grant?.open || !wantedByOthers(budget, this.options.grants?.replica, Date.now(), grant.takenAt))
      return;
    clearTimeout(grant.timer);
    void this.release(grant);
  }

  /** Admits `claim` under the Deny budget `key` by reserving its GPUs, or throws AdmissionDenied. */
  async reserve(key: ObjectKey, claim: Claim): Promise<void> {
    const id = `${key.namespace}/${key.name}`;
    const deadline = Date.now() + (this.options.deadlineMs ?? 7_000);
    const budget = this.writes.newest(id, await this.options.client.get(GPUBudgetKind, key));
    if (this.fromGrant(id, claim, budget)) return;
    if (this.waiting.has(id)) {
      // A write is in flight. A claim that does not fit even without the admissions it carries is
      // refused now rather than after that round trip: what this replica knows can only grow by them.
      if (this.options.tracker.passedSettled(key.namespace ?? "", settledMarks(budget.status))) {
        const { kept, counted, reserved, granted } = this.measure(key, id, budget, Date.now());
        // Other replicas' grants may hold room their pods already fill: those are waited out in a write.
        if (
          !kept.some(sameChange(claim)) &&
          counted + reserved - granted + claim.milliGPUs > budget.spec.maxGPUs * 1000
        ) {
          throw new AdmissionDenied(
            refusal(
              budget,
              describeBudget(budget.spec),
              counted,
              reserved - granted,
              claim.milliGPUs,
              claim.kind,
            ),
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

  /**
   * Admits a create from this replica's open grant on the budget when it fits there: no write. Decided
   * without yielding, so admissions from one grant never overlap; `budget` (the newest version this
   * replica knows) is only checked for the grant's terms.
   */
  private fromGrant(id: string, claim: Claim, budget: GPUBudget): boolean {
    const grant = this.own.get(id);
    if (!grant?.open || claim.podResourceVersion !== undefined || Date.now() >= grant.useUntil) return false;
    if (budget.spec.enforcement !== "Deny" || budget.spec.maxGPUs * 1000 !== grant.capMilli) return false;
    // Its room is only reserved while its entry is in the status (someone editing the status could drop it).
    if (
      budget.metadata?.generation !== grant.generation ||
      !budget.status?.reservations?.some((r) => r.podUID === grant.id)
    )
      return false;
    if (grant.admitted.has(claim.podUID)) return true; // a retried request
    if (grant.usedMilli + claim.milliGPUs > grant.milliGPUs) return false;
    if (claim.dryRun) return true;
    grant.admitted.set(claim.podUID, {
      pod: reservationName(claim.kind ?? "pod", claim.pod),
      podUID: claim.podUID,
      milliGPUs: claim.milliGPUs,
      expiresAt: new Date(Date.now() + this.options.ttlMs).toISOString(),
    });
    grant.usedMilli += claim.milliGPUs;
    return true;
  }

  /**
   * At the end of its use window, converts this replica's grant on one budget (unless a write already
   * did), so other replicas stop counting its room. Best effort: a grant left behind counts until it
   * expires, which only refuses more.
   */
  private async release(grant: Grant): Promise<void> {
    const { client, tracker } = this.options;
    const { key } = grant;
    const id = `${key.namespace}/${key.name}`;
    grant.open = false;
    const deadline = Date.now() + (this.options.deadlineMs ?? 7_000);
    try {
      let budget = this.writes.newest(id, await client.get(GPUBudgetKind, key));
      while (this.own.get(id) === grant && Date.now() < deadline) {
        const marks = settledMarks(budget.status);
        if (
          !tracker.passedSettled(key.namespace ?? "", marks) &&
          !(await tracker.waitForSettled(key.namespace ?? "", marks, deadline - Date.now()))
        )
          return;
        const next = await this.writes.exclusive(id, () => this.attempt(key, id, budget, [], true));
        if (!next) return;
        budget = next.budget;
      }
    } catch {
      // Deleted, or the API server unreachable: the grant counts in full, as another replica's would,
      // until it expires (it covers the pods admitted from it).
    }
    if (this.own.get(id) === grant) this.own.delete(id);
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
   * it has not released (settle), and of those the GPUs its cache has not seen yet. This replica's own
   * grant is counted as what converting it would leave (its pods' reservations, settled like the rest),
   * other replicas' in full (`granted`, also inside `reserved`). `kept` is the list a write would carry.
   */
  private measure(
    key: ObjectKey,
    id: string,
    budget: GPUBudget,
    now: number,
  ): {
    kept: GPUBudgetReservation[];
    settled: SettledMarks;
    counted: number;
    reserved: number;
    granted: number;
    grantsUntil: number;
  } {
    const { tracker, ttlMs } = this.options;
    const own = this.own.get(id);
    const listed = (budget.status?.reservations ?? []).filter((r) => r.podUID !== own?.id);
    const { kept, settled } = tracker.settle(
      own ? [...listed, ...own.admitted.values()] : listed,
      settledMarks(budget.status),
      now,
    );
    const counted = tracker.usage(key.namespace ?? "", key.name, now)?.allocatedMilli ?? 0;
    const { reservedMilli: reserved, grants } = tracker.unseen(kept);
    let granted = 0;
    let grantsUntil = 0;
    for (const r of grants) {
      granted += r.milliGPUs;
      grantsUntil = Math.max(grantsUntil, Date.parse(r.expiresAt) - ttlMs);
    }
    return { kept, settled, counted, reserved, granted, grantsUntil };
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
      if (next.recheckMs !== undefined) {
        // Only another replica's grant stands in the way: read again once it may have been converted.
        await new Promise((resolve) => setTimeout(resolve, next.recheckMs));
        budget = this.writes.newest(id, await client.get(GPUBudgetKind, key));
        open = next.open;
        continue;
      }
      ({ budget, open } = next);
    }
  }

  /**
   * One decision and write of `open` against the newest version of the budget this replica knows (the
   * controller may have written since `budget` was read). Any write converts this replica's grant, and
   * one that admits pods with room to spare takes a new one. Returns what to try again after a conflict,
   * after a newer version whose marks this replica's caches have not passed, or (recheckMs) once another
   * replica's grant may be gone; undefined when done. `convert` writes even with nothing to admit.
   */
  private async attempt(
    key: ObjectKey,
    id: string,
    read: GPUBudget,
    open: Waiting[],
    convert = false,
  ): Promise<{ budget: GPUBudget; open: Waiting[]; recheckMs?: number } | undefined> {
    const { client, apiReader, tracker, ttlMs, grants } = this.options;
    const budget = this.writes.newest(id, read);
    if (budget !== read && !tracker.passedSettled(key.namespace ?? "", settledMarks(budget.status)))
      return { budget, open };
    const now = Date.now();
    const measured = this.measure(key, id, budget, now);
    const { kept, settled, counted, granted, grantsUntil } = measured;
    let reserved = measured.reserved;
    const cap = budget.spec.maxGPUs * 1000;
    const unit = describeBudget(budget.spec);
    const adding: GPUBudgetReservation[] = [];
    const writing: Waiting[] = [];
    const later: Waiting[] = [];
    for (const w of open) {
      const { claim } = w;
      // The same pod and change already reserved: a retried request (e.g. after a replica died).
      const same = sameChange(claim);
      if (kept.some(same) || adding.some(same)) {
        w.admit();
        continue;
      }
      if (counted + reserved + claim.milliGPUs > cap) {
        // Room other replicas' grants hold may already be in use by pods this cache counts: if only
        // that refuses, decide again once they are converted, not on an overcount. A refusal names what
        // refuses: the grants only if without them the pod would fit ("14 in use" of 10 would be that
        // overcount).
        const fitsWithoutGrants = counted + reserved - granted + claim.milliGPUs <= cap;
        if (fitsWithoutGrants && Date.now() < Math.min(w.deadline, grantsUntil + GRANT_CONVERT_MS))
          later.push(w);
        else
          w.refuse(
            new AdmissionDenied(
              refusal(
                budget,
                unit,
                counted,
                fitsWithoutGrants ? reserved : reserved - granted,
                claim.milliGPUs,
                claim.kind,
              ),
            ),
          );
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
    const deferred = later.length > 0 ? { budget, open: later, recheckMs: GRANT_RECHECK_MS } : undefined;
    // Waiting on other replicas' grants: ask their holders to give them back now, once per WANT_MS.
    const want = wantName(grants?.replica);
    if (later.length > 0 && !kept.some((r) => r.pod === want)) {
      adding.push({
        pod: want,
        podUID: randomUUID(),
        milliGPUs: 0,
        expiresAt: new Date(now + WANT_MS).toISOString(),
      });
    }
    const own = this.own.get(id);
    if (writing.length === 0 && adding.length === 0 && !(convert && own)) return deferred;
    // Pods admitted from the old grant from here on would not be in this write.
    if (own) own.open = false;
    const room = cap - counted - reserved;
    const grant =
      grants &&
      !this.options.stopping?.aborted &&
      writing.length > 0 &&
      later.length === 0 &&
      !wantedByOthers(budget, grants.replica, now) &&
      budget.spec.enforcement === "Deny" &&
      room >= grants.minRoomMilli
        ? newGrant(key, Math.floor(room / 2 / 1000) * 1000, budget, now, now + grants.useMs)
        : undefined;
    if (grant) {
      adding.push({
        pod: `${GRANT_PREFIX}${grants?.replica}`,
        podUID: grant.id,
        milliGPUs: grant.milliGPUs,
        expiresAt: new Date(grant.useUntil + ttlMs).toISOString(),
      });
    }
    const status = { ...budget.status };
    const reservations = [...kept, ...adding];
    if (reservations.length > 0) status.reservations = reservations;
    else delete status.reservations;
    setSettledMarks(status, settled);
    // Full now, counting what this write reserves: the budget-full policy refuses the rest in kube-apiserver.
    setFullAtGeneration(status, budget, counted + reserved, granted > 0 || grant !== undefined);
    try {
      const written = await client.status().update(GPUBudgetKind, { ...budget, status });
      this.writes.record(id, written);
      const generation = budget.metadata?.generation;
      if (status.fullAtGeneration !== undefined && budget.status?.fullAtGeneration !== generation)
        this.options.onFull?.(key.namespace ?? "");
      if (own && this.own.get(id) === own) {
        clearTimeout(own.timer);
        this.own.delete(id);
      }
      if (grant) {
        this.own.set(id, grant);
        const useMs = this.options.stopping?.aborted ? 0 : grant.useUntil - Date.now();
        grant.timer = setTimeout(() => void this.release(grant), useMs);
        grant.timer.unref?.();
      }
      for (const w of writing) w.admit();
      return deferred;
    } catch (err) {
      if (!isConflict(err)) throw err;
      const after = Date.now();
      const still = [...writing, ...later].filter((w) => {
        if (after <= w.deadline) return true;
        w.refuse(busy(id, w.claim));
        return false;
      });
      if (still.length === 0 && !convert) return undefined;
      const fresh = await apiReader.get(GPUBudgetKind, key);
      this.writes.record(id, fresh);
      return { budget: fresh, open: still };
    }
  }
}

/** How long after another replica's grant's use window ends it is waited for, at most, before a refusal. */
const GRANT_CONVERT_MS = 1_000;
/** How long a replica's request for the grants stands (and holders take no new grant on that budget). */
const WANT_MS = 1_000;
/** How often an admission that only another replica's grant stands in the way of is decided again. */
const GRANT_RECHECK_MS = 50;

function newGrant(
  key: ObjectKey,
  milliGPUs: number,
  budget: GPUBudget,
  takenAt: number,
  useUntil: number,
): Grant | undefined {
  if (milliGPUs < 1000) return undefined;
  const capMilli = budget.spec.maxGPUs * 1000;
  const generation = budget.metadata?.generation;
  return {
    id: randomUUID(),
    key,
    milliGPUs,
    capMilli,
    generation,
    takenAt,
    useUntil,
    open: true,
    admitted: new Map(),
    usedMilli: 0,
  };
}

/** The name of a replica's request for the grants ("want/<replica>"; without grants of its own, one shared name). */
function wantName(replica: string | undefined): string {
  return `${WANT_PREFIX}${replica ?? "replica"}`;
}

/**
 * Whether another replica than `replica` asks for the budget's grants: a "want/" entry still standing at
 * `now`, written at `since` or later (its expiresAt less WANT_MS; replicas' clocks may differ a little,
 * which only gives a grant back early or leaves it to its use window).
 */
function wantedByOthers(budget: GPUBudget, replica: string | undefined, now: number, since = 0): boolean {
  const own = wantName(replica);
  return (budget.status?.reservations ?? []).some((r) => {
    if (!isWant(r) || r.pod === own) return false;
    const expires = Date.parse(r.expiresAt);
    return expires > now && expires - WANT_MS >= since;
  });
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
