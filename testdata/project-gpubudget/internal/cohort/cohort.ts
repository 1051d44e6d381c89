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

import { type ConditionInput, type Pod, parseDuration } from "@kbts/runtime";
import type { GPUBudget } from "../../api/v1alpha1/gpubudget_types.js";
import { podStart } from "../ledger/ledger.js";

/**
 * Cohorts: budgets (in any namespace) naming the same spec.cohort lend each other their unused GPUs.
 * The arithmetic is Kueue's ClusterQueue and cohort, with maxGPUs as the nominal quota:
 *
 * - A member keeps `maxGPUs - lendingLimit` for itself (all of maxGPUs is lendable when lendingLimit is
 *   absent) and puts the rest in the cohort's pool. What it uses above its kept part draws from the pool.
 * - A unit fits a member when the pool still holds it (sum of what members draw <= sum of what they put
 *   in) and, if it takes the member above maxGPUs, the member may borrow (a Queue budget) and stays within
 *   maxGPUs + borrowingLimit (no limit when absent). Without lending limits the pool rule is simply "the
 *   cohort's allocated GPUs stay within the sum of its maxGPUs".
 * - Reclaim: a member whose next unit fits its own maxGPUs but not the pool (because others borrowed)
 *   gets its GPUs back: pods of members above their maxGPUs are evicted, newest first, once they have
 *   run their budget's reclaim.minRuntime, just enough for the unit.
 *
 * Where it differs from Kueue, and why:
 * - Only enforcement: Queue budgets borrow. Their pods wait behind a gate and the leader releases them
 *   one decision at a time, so a release can be exact across the whole cohort. A Deny or Report budget
 *   lends its unused GPUs but never borrows: a pod Deny refuses is not retried when GPUs free up, and the
 *   budget-full admission policy refuses at maxGPUs in kube-apiserver, where the cohort is not known.
 *   Its pods are never held, so it takes back lent GPUs at once: the cohort may then be over its total
 *   until borrowed pods finish; nothing borrows meanwhile, and a Deny lender triggers no reclaim.
 * - A borrowing release waits while another member has a queued pod that fits within that member's own
 *   maxGPUs (Kueue orders by its fair-sharing or borrowing rules instead): lenders get their GPUs first,
 *   so a reclaim is never undone by a borrower taking the GPUs it freed.
 * - Fair order among borrowers: a borrowing release also waits while another Queue member with less recent
 *   GPU use (per GPU of its maxGPUs) has a first unit in line that would borrow and fits the pool now. Kueue
 *   orders its fair sharing by usage with a half-life too (usageHalfLifeTime, as KAI's usage decay), but
 *   adds an entry penalty per admission; here a member's figure grows only as its pods run, so the member
 *   with the least recent use takes freed GPUs until its line stops fitting (see recentUsageAt).
 * - minRuntime (Kueue has none; it reclaims any borrowing workload) is the borrower's: a promise to the
 *   users of that budget that a pod running on borrowed GPUs gets at least that long.
 * - No hierarchy of cohorts, no flavors: a budget counts its own resources, and a cohort mixes budgets
 *   that count the same GPUs (the operator does not check it).
 */

/**
 * The half-life of a cohort member's recent GPU use (status.recentUsage): an hour, as Kueue's
 * usageHalfLifeTime is set in its examples. Fixed rather than a setting: a cohort has no object to hold it,
 * and a per-budget half-life would make members' figures incomparable, which is all they are for.
 */
export const RECENT_USAGE_HALF_LIFE_MS = 3_600_000;

/** A member's recent GPU use as its status holds it: thousandths of a GPU times seconds, decayed, as of `at`. */
export interface RecentUsage {
  milliGPUSeconds: number;
  at: string;
}

/**
 * The recent GPU use at `now`: the figure at `previous.at` halved every half-life, plus what the budget held
 * since (`allocatedMilli`, unchanged since then), each second weighted by 2^(-age/halfLife):
 * ∫ A·2^(-(now-t)/H) dt = A·H/ln2·(1 - 2^(-Δt/H)). Why from status, not from pods' lifetimes: a pod deleted
 * long ago still counts, and a status survives restarts and leader changes. The reconciler folds the time
 * in whenever allocatedMilliGPUs changes (so the pair in status always says what was held since `at`);
 * while no operator runs, the last figure written is taken as held throughout.
 */
export function recentUsageAt(
  previous: RecentUsage | undefined,
  allocatedMilli: number,
  now: number,
  halfLifeMs = RECENT_USAGE_HALF_LIFE_MS,
): number {
  if (!previous) return 0;
  const at = Date.parse(previous.at);
  const dt = Number.isFinite(at) ? Math.max(0, now - at) : 0;
  const kept = 2 ** (-dt / halfLifeMs);
  return (
    Math.max(0, previous.milliGPUSeconds) * kept +
    Math.max(0, allocatedMilli) * (halfLifeMs / 1000 / Math.LN2) * (1 - kept)
  );
}

/** Field index on GPUBudget: the budgets of a cohort (spec.cohort), so a change in one wakes its peers. */
export const BUDGET_COHORT_INDEX = "gpubudget.cohort";

/** One budget of a cohort, with what its pods hold now (thousandths of a GPU). */
export interface CohortMember {
  /** namespace/name */
  key: string;
  cohort: string;
  maxMilli: number;
  allocatedMilli: number;
  /** Of allocatedMilli, what pods being deleted (evicted) still hold until they are gone. */
  terminatingMilli: number;
  /** Undefined: no limit. */
  borrowingLimitMilli?: number;
  /** Undefined: all of maxGPUs is lendable. */
  lendingLimitMilli?: number;
  /** Queue budgets borrow; Deny and Report budgets only lend. */
  borrows: boolean;
  /** It has a queued pod that fits within its own maxGPUs: borrowing by the others waits for it. */
  waiting: boolean;
  /** How long its pods run on borrowed GPUs before they may be reclaimed (spec.reclaim.minRuntime). */
  minRuntimeMs: number;
  /** Its recent GPU use now (recentUsageAt): members with less per GPU of maxGPUs borrow first. */
  recentMilliGPUSeconds: number;
  /** What its first unit in line asks, when that unit would borrow: it competes for the pool's free GPUs. */
  headMilli?: number;
}

/** Set on a budget whose cohort a sharded operator cannot share (cohortNotShared). */
export const COHORT_CONDITION = "Cohort";

/**
 * A sharded operator (--shard-ring) decides each namespace on one replica, from that replica's caches
 * of its own namespaces only. A cohort's decisions read every member's budget and pods and must be made
 * in one place (a release exact across the cohort, reclaim across namespaces), so across shards they
 * could not be made correctly: the budget is decided alone, on its own maxGPUs, and says so.
 */
export function withoutCohort(budget: GPUBudget): GPUBudget {
  const { cohort: _, ...spec } = budget.spec;
  return { ...budget, spec };
}

export function cohortNotShared(cohort: string, observedGeneration: number): ConditionInput {
  return {
    type: COHORT_CONDITION,
    status: "False",
    reason: "Sharded",
    message: `cohort ${cohort} is not shared: the operator runs sharded (--shard-ring) and each replica sees only its own namespaces' budgets, so this budget neither lends nor borrows and is held to its own maxGPUs`,
    observedGeneration,
  };
}

export function memberKey(budget: GPUBudget): string {
  return `${budget.metadata?.namespace ?? ""}/${budget.metadata?.name ?? ""}`;
}

/** A budget's cohort member, from its spec and what its pods hold. */
export function cohortMember(
  budget: GPUBudget,
  usage: {
    allocatedMilli: number;
    terminatingMilli?: number;
    waiting?: boolean;
    recentMilliGPUSeconds?: number;
    headMilli?: number;
  },
): CohortMember {
  const spec = budget.spec;
  return {
    key: memberKey(budget),
    cohort: spec.cohort ?? "",
    maxMilli: spec.maxGPUs * 1000,
    allocatedMilli: usage.allocatedMilli,
    terminatingMilli: usage.terminatingMilli ?? 0,
    borrowingLimitMilli: spec.borrowingLimit === undefined ? undefined : spec.borrowingLimit * 1000,
    lendingLimitMilli: spec.lendingLimit === undefined ? undefined : spec.lendingLimit * 1000,
    borrows: spec.enforcement === "Queue",
    waiting: usage.waiting ?? false,
    minRuntimeMs: minRuntimeMs(budget),
    recentMilliGPUSeconds: usage.recentMilliGPUSeconds ?? 0,
    headMilli: usage.headMilli,
  };
}

/** spec.reclaim.minRuntime in milliseconds (0 when absent or unreadable: the CRD's pattern admits only Go durations). */
export function minRuntimeMs(budget: GPUBudget): number {
  const ms = parseDuration(budget.spec.reclaim?.minRuntime ?? "0s");
  return ms !== undefined && ms > 0 ? ms : 0;
}

/** The part of maxGPUs a member never lends. */
function keptMilli(m: CohortMember): number {
  return m.lendingLimitMilli === undefined ? 0 : Math.max(0, m.maxMilli - m.lendingLimitMilli);
}

/**
 * Recent GPU use per GPU of maxGPUs (Kueue's dominant resource share divides by the nominal quota too):
 * 0 without use; without a maxGPUs of its own, any use puts a member after every member with one.
 */
export function recentShare(m: Pick<CohortMember, "recentMilliGPUSeconds" | "maxMilli">): number {
  if (m.recentMilliGPUSeconds <= 0) return 0;
  return m.maxMilli > 0 ? m.recentMilliGPUSeconds / m.maxMilli : Number.POSITIVE_INFINITY;
}

/** Fair order: less recent use per GPU first, then key, so every replica decides alike. */
export function fairOrder(a: CohortMember, b: CohortMember): number {
  const sa = recentShare(a);
  const sb = recentShare(b);
  if (sa !== sb) return sa < sb ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** GPUs a member holds above its maxGPUs. */
export function borrowedMilli(m: Pick<CohortMember, "allocatedMilli" | "maxMilli">): number {
  return Math.max(0, m.allocatedMilli - m.maxMilli);
}

/** The members of every cohort a release decision touches, and what they hold as releases are planned. */
export class CohortState {
  private readonly byKey = new Map<string, CohortMember>();

  constructor(members: readonly CohortMember[]) {
    for (const m of members) this.byKey.set(m.key, { ...m });
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  get(key: string): CohortMember | undefined {
    return this.byKey.get(key);
  }

  /** The members of one cohort. */
  members(cohort: string): CohortMember[] {
    return [...this.byKey.values()].filter((m) => m.cohort === cohort);
  }

  /** A copy to plan on. */
  clone(): CohortState {
    return new CohortState([...this.byKey.values()]);
  }

  add(key: string, milli: number): void {
    const m = this.byKey.get(key);
    if (m) m.allocatedMilli += milli;
  }

  /** What the cohort's pool holds, and what its members draw from it now. */
  pool(cohort: string): { capacity: number; used: number } {
    let capacity = 0;
    let used = 0;
    for (const m of this.members(cohort)) {
      capacity += m.maxMilli - keptMilli(m);
      used += Math.max(0, m.allocatedMilli - keptMilli(m));
    }
    return { capacity, used };
  }

  /** Whether `unitMilli` more for member `key` fits its cohort (see the top of this file). */
  fits(key: string, unitMilli: number): boolean {
    const m = this.byKey.get(key);
    if (!m) return false;
    if (unitMilli <= 0) return true;
    if (!this.fitsPool(m, unitMilli)) return false;
    if (m.allocatedMilli + unitMilli <= m.maxMilli) return true;
    // Borrowing: lenders waiting for their own GPUs go first, then borrowers with less recent use.
    if (this.members(m.cohort).some((o) => o.key !== key && o.waiting)) return false;
    return this.aheadOf(key, unitMilli) === undefined;
  }

  /**
   * The member a borrowing unit of `key` waits behind: another member with less recent use per GPU
   * (fairOrder) whose first unit in line would borrow too and, when `fitting` (what fits() asks), fits the
   * cohort now. Undefined when none, or when the unit does not borrow. The first in fair order, so a message
   * can name it: without `fitting`, the member that borrows first once GPUs free up.
   */
  aheadOf(key: string, unitMilli: number, fitting = true): CohortMember | undefined {
    const m = this.byKey.get(key);
    if (!m || m.allocatedMilli + unitMilli <= m.maxMilli) return undefined;
    return this.members(m.cohort)
      .filter(
        (o) =>
          o.key !== key &&
          o.headMilli !== undefined &&
          fairOrder(o, m) < 0 &&
          (!fitting || this.fitsPool(o, o.headMilli)),
      )
      .sort(fairOrder)[0];
  }

  /** Whether `unitMilli` more for `m` stays within its borrowing rights and the cohort's pool. */
  private fitsPool(m: CohortMember, unitMilli: number): boolean {
    const after = m.allocatedMilli + unitMilli;
    if (after > m.maxMilli) {
      if (!m.borrows) return false;
      if (m.borrowingLimitMilli !== undefined && after - m.maxMilli > m.borrowingLimitMilli) return false;
    }
    const kept = keptMilli(m);
    const { capacity, used } = this.pool(m.cohort);
    const drawn = Math.max(0, after - kept) - Math.max(0, m.allocatedMilli - kept);
    return used + drawn <= capacity;
  }

  /** Whether `unitMilli` more stays within the member's own maxGPUs: then it may reclaim lent GPUs. */
  withinOwn(key: string, unitMilli: number): boolean {
    const m = this.byKey.get(key);
    return !!m && m.allocatedMilli + unitMilli <= m.maxMilli;
  }
}

/** A pod holding GPUs under a cohort member: what reclaim may evict. */
export interface RunningPod {
  pod: Pod;
  /** The member (namespace/name) whose GPUs it holds. */
  member: string;
  milli: number;
  /** When it started running (startedAt). */
  startedAt: number;
}

export interface ReclaimPlan {
  /** The pods to evict, newest first: none unless they are enough for the lender's unit. */
  evict: RunningPod[];
  /** Pods already being deleted free enough: wait for them, evict nothing more. */
  waitingForTerminations: boolean;
  /** When the next pod to evict, still short of its minRuntime, becomes evictable: decide again then. */
  retryAt?: number;
}

/**
 * The pods to evict so that `unitMilli` for lender `key` fits its cohort: pods of members above their
 * maxGPUs, newest first (strictly: it waits for the next one's minRuntime), and no more than needed (a member
 * is not reclaimed below its maxGPUs). Pods already terminating count as freed.
 */
export function planReclaim(
  state: CohortState,
  key: string,
  unitMilli: number,
  running: readonly RunningPod[],
  now: number,
): ReclaimPlan {
  const plan = state.clone();
  for (const m of plan.members(plan.get(key)?.cohort ?? "")) plan.add(m.key, -m.terminatingMilli);
  if (plan.fits(key, unitMilli)) return { evict: [], waitingForTerminations: true };
  const newestFirst = [...running].sort(
    (a, b) =>
      b.startedAt - a.startedAt || ((a.pod.metadata?.name ?? "") < (b.pod.metadata?.name ?? "") ? 1 : -1),
  );
  const evict: RunningPod[] = [];
  for (const r of newestFirst) {
    const m = plan.get(r.member);
    if (!m || r.member === key || m.cohort !== plan.get(key)?.cohort || r.milli <= 0) continue;
    // Only a borrower's pods: a Report budget over its maxGPUs is exceeded, not borrowing.
    if (!m.borrows || m.allocatedMilli <= m.maxMilli) continue;
    // Strictly newest first: a pod short of its minRuntime is waited for, not passed over for an older
    // one, whose eviction would throw away more work.
    const eligibleAt = r.startedAt + m.minRuntimeMs;
    if (eligibleAt > now) return { evict: [], waitingForTerminations: false, retryAt: eligibleAt };
    plan.add(r.member, -r.milli);
    evict.push(r);
    if (plan.fits(key, unitMilli)) return { evict, waitingForTerminations: false };
  }
  return { evict: [], waitingForTerminations: false };
}

/**
 * When a pod began running on its GPUs: the ledger's podStart (status.startTime, the kubelet's), else
 * its Ready condition, else its release from the queue, else its creation.
 */
export function startedAt(pod: Pod, releasedConditionType: string): number {
  const start = podStart(pod);
  if (start !== undefined && Number.isFinite(start)) return start;
  const conditions = pod.status?.conditions ?? [];
  const candidates = [
    conditions.find((c) => c.type === "Ready" && c.status === "True")?.lastTransitionTime,
    conditions.find((c) => c.type === releasedConditionType && c.status === "False")?.lastTransitionTime,
    pod.metadata?.creationTimestamp,
  ];
  for (const c of candidates) {
    const at = Date.parse(String(c ?? ""));
    if (Number.isFinite(at)) return at;
  }
  return 0;
}

/**
 * How many GPUs a lender lends now: the cohort's borrowed GPUs, taken from its lenders' unused lendable
 * GPUs in key order (a pool does not say which lender lent which GPU; a fixed order keeps the figure steady).
 */
export function lentMilli(members: readonly CohortMember[], key: string): number {
  let borrowed = 0;
  for (const m of members) if (m.borrows) borrowed += borrowedMilli(m);
  for (const m of [...members].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
    const unused = Math.max(0, m.maxMilli - m.allocatedMilli);
    const lendable = Math.min(unused, m.lendingLimitMilli ?? unused);
    const lent = Math.min(lendable, borrowed);
    if (m.key === key) return lent;
    borrowed -= lent;
  }
  return 0;
}
