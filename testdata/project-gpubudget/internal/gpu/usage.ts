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
  compareResourceVersions,
  type Informer,
  type KubernetesObject,
  type LabelSelector,
  type Pod,
} from "@kbts/runtime";
import {
  type BudgetDeviceClass,
  type ClaimOwners,
  claimCountedMilli,
  extendedResourceClaimOwner,
  extendedResourceClaimPod,
  type ResourceClaim,
} from "./claims.js";
import { type BudgetResource, countsUntil, podMilliGPUs, selectorMatches } from "./podgpus.js";

/** What the tracker needs of a budget: where it is and what it counts. */
export interface TrackedBudget {
  namespace: string;
  name: string;
  selector?: LabelSelector;
  resources: readonly BudgetResource[];
  /** The DeviceClasses whose ResourceClaims it counts (claims.ts); none when absent. */
  deviceClasses?: readonly BudgetDeviceClass[];
}

/** A budget's usage at one moment, read in constant time. */
export interface TrackedUsage {
  allocatedMilli: number;
  podCount: number;
  /** The next moment (ms) a counted terminating pod stops counting; Infinity when none will. */
  nextChangeAt: number;
}

interface BudgetState {
  selector?: LabelSelector;
  resources: readonly BudgetResource[];
  deviceClasses: readonly BudgetDeviceClass[];
  /** The rule as text, to tell a spec change that needs a recount from a status-only update. */
  rule: string;
  allocatedMilli: number;
  podCount: number;
  /** Counted pods that are being deleted: they stop counting at `until` (ResourceQuota's rule). */
  terminating: Map<string, { until: number; milli: number }>;
  /** claim uid -> what it adds now: a claim's count follows its owner pod (claims.ts), so it is kept to take back. */
  claimMilli: Map<string, number>;
}

/** What the tracker needs of a reservation (see internal/webhook/v1/reservations.ts). */
export interface TrackedReservation {
  /** The pod's name, or "resourceclaim/<name>" for a ResourceClaim's reservation. */
  pod?: string;
  podUID: string;
  podResourceVersion?: string;
  expiresAt: string;
}

/**
 * How far released reservations were seen, per kind (status.settledPodResourceVersion and
 * status.settledClaimResourceVersion): a replica decides only once its caches have passed both.
 */
export interface SettledMarks {
  pods?: string;
  claims?: string;
}

/** Where a budget's status keeps its marks. */
export interface SettledStatus {
  settledPodResourceVersion?: string;
  settledClaimResourceVersion?: string;
}

/** The marks a budget's status holds. */
export function settledMarks(status: SettledStatus | undefined): SettledMarks {
  return { pods: status?.settledPodResourceVersion, claims: status?.settledClaimResourceVersion };
}

/** Writes the marks into a budget's status (a mark never goes back to unset). */
export function setSettledMarks(status: SettledStatus, marks: SettledMarks): void {
  if (marks.pods !== undefined) status.settledPodResourceVersion = marks.pods;
  if (marks.claims !== undefined) status.settledClaimResourceVersion = marks.claims;
}

/** Waits until one of this replica's caches has passed `resourceVersion` in `namespace` (false on timeout). */
export type CacheWaiter = (namespace: string, resourceVersion: string, timeoutMs: number) => Promise<boolean>;

/** A reservation names its pod by the pod's name, and a ResourceClaim as "resourceclaim/<name>". */
const CLAIM_RESERVATION_PREFIX = "resourceclaim/";

/** The name a reservation records for an admitted pod or ResourceClaim. */
export function reservationName(kind: "pod" | "resourceclaim", name: string): string {
  return kind === "resourceclaim" ? `${CLAIM_RESERVATION_PREFIX}${name}` : name;
}

/** Whether a reservation holds a ResourceClaim's devices rather than a pod's. */
function isClaimReservation(r: TrackedReservation): boolean {
  return r.pod?.startsWith(CLAIM_RESERVATION_PREFIX) === true;
}

/** The name of a grant's entry in status.reservations (room a webhook replica took in advance); pod names hold no "/". */
export const GRANT_PREFIX = "grant/";

/** Whether a reservation is a grant rather than a pod's or a claim's. */
export function isGrant(r: TrackedReservation): boolean {
  return r.pod?.startsWith(GRANT_PREFIX) === true;
}

/**
 * The name of a replica's request, in status.reservations, that the grants on a budget be given back now:
 * "want/<replica>", 0 GPUs. It is written by a replica that waits on their room, and holds nothing.
 */
export const WANT_PREFIX = "want/";

/** Whether a reservation is a replica's request for the budget's grants (see WANT_PREFIX). */
export function isWant(r: TrackedReservation): boolean {
  return r.pod?.startsWith(WANT_PREFIX) === true;
}

/** Where a budget's status keeps fullAtGeneration. */
export interface FullStatus {
  fullAtGeneration?: number;
}

/**
 * Sets status.fullAtGeneration as a writer of the budget's status knows it: the budget's generation when it
 * is a Deny budget whose writer counts no room left (`inUseMilli`: its caches' count plus the reservations
 * they have not seen) and no grant is held, since a grant's room may be unused and only its holder knows;
 * removed otherwise, and when the writer cannot tell seen pods from unseen reservations (`inUseMilli`
 * undefined). The webhook's writes and the controller's both set it with this, so the budget-full
 * policy's shortcut says what the last writer knew, never more.
 */
export function setFullAtGeneration(
  status: FullStatus,
  budget: { spec: { enforcement?: string; maxGPUs: number }; metadata?: { generation?: number } },
  inUseMilli: number | undefined,
  grantHeld: boolean,
): void {
  const generation = budget.metadata?.generation;
  const full =
    budget.spec.enforcement === "Deny" &&
    !grantHeld &&
    generation !== undefined &&
    inUseMilli !== undefined &&
    inUseMilli >= budget.spec.maxGPUs * 1000;
  if (full) status.fullAtGeneration = generation;
  else delete status.fullAtGeneration;
}

interface NamespaceState {
  pods: Map<string, Pod>;
  /** uid -> ResourceClaim: each counts once, in its own namespace (claims.ts). */
  claims: Map<string, ResourceClaim>;
  /** pod uid -> uids of the extended-resource claims it controls, whose count depends on the pod (claims.ts). */
  claimsOfPod: Map<string, Set<string>>;
  budgets: Map<string, BudgetState>;
}

/**
 * What one informer of this replica has seen, by uid: the version each object is at, and for a while
 * those it saw deleted, with the version of their deletion; and per namespace the newest version it
 * saw, at or below which a version has passed this cache.
 */
class SeenVersions {
  private readonly versions = new Map<string, string>();
  private readonly gone = new Map<string, { at: number; resourceVersion: string }>();
  private readonly newest = new Map<string, string>();

  constructor(private readonly forgetAfterMs: number) {}

  upsert(namespace: string, uid: string, resourceVersion: string | undefined): void {
    this.versions.set(uid, resourceVersion ?? "");
    this.observe(namespace, resourceVersion);
  }

  delete(namespace: string, uid: string, resourceVersion: string | undefined, now: number): void {
    this.versions.delete(uid);
    this.gone.set(uid, { at: now, resourceVersion: resourceVersion ?? "" });
    this.observe(namespace, resourceVersion);
    // Forget old deletions in passing; the oldest are first (Map keeps insertion order).
    for (const [key, { at }] of this.gone) {
      if (now - at < this.forgetAfterMs) break;
      this.gone.delete(key);
    }
  }

  /**
   * The version at which this cache holds `uid` at a version other than `notAt` (any version, when
   * undefined), or saw it deleted (the deletion's version).
   */
  seenAt(uid: string, notAt?: string): string | undefined {
    const gone = this.gone.get(uid);
    if (gone) return gone.resourceVersion;
    const seen = this.versions.get(uid);
    return seen !== undefined && seen !== notAt ? seen : undefined;
  }

  /** Whether this cache has seen an event at or past `resourceVersion` in `namespace`. */
  passed(namespace: string, resourceVersion: string): boolean {
    const newest = this.newest.get(namespace);
    if (newest === undefined) return false;
    const order = compareResourceVersions(newest, resourceVersion);
    return order !== undefined && order >= 0;
  }

  private observe(namespace: string, resourceVersion: string | undefined): void {
    if (!resourceVersion) return;
    const newest = this.newest.get(namespace);
    const order = newest === undefined ? 1 : compareResourceVersions(resourceVersion, newest);
    if (order !== undefined && order > 0) this.newest.set(namespace, resourceVersion);
  }
}

/**
 * Per-namespace, per-budget GPU usage kept up to date from the Pod and budget informers' events, so an
 * admission reads two numbers instead of listing and recounting every pod of the namespace (which made
 * filling a namespace quadratic). A pod event touches each budget of its namespace once; a budget's spec
 * change recounts that budget alone. The reconciler still recounts from the cache and reports any drift
 * (gpubudget_usage_drift_total), which would be a bug here.
 *
 * It also remembers which pods this replica's cache has seen, at which resourceVersion (and, for a while,
 * which it saw go), which is what releases an admission reservation (see internal/webhook/v1/reservations.ts).
 */
export class UsageTracker {
  private readonly namespaces = new Map<string, NamespaceState>();
  /** What the Pod cache has seen (releases pods' reservations; status.settledPodResourceVersion). */
  private readonly podsSeen: SeenVersions;
  /** What the ResourceClaim cache has seen (releases claims' reservations; status.settledClaimResourceVersion). */
  private readonly claimsSeen: SeenVersions;
  private readonly waitForPods?: CacheWaiter;
  private readonly waitForClaims?: CacheWaiter;

  /**
   * `waitForPods` and `waitForClaims` are the caches' "has the watch passed this version"
   * (usageTrackerFor gives the manager cache's); without them (unit tests) a version counts as passed
   * once this tracker has seen an event of that kind at or past it in that namespace. Deletions are
   * remembered for `forgetAfterMs`, longer than a reservation lives.
   */
  constructor(
    options: { forgetAfterMs?: number; waitForPods?: CacheWaiter; waitForClaims?: CacheWaiter } = {},
  ) {
    const forgetAfterMs = options.forgetAfterMs ?? 120_000;
    this.podsSeen = new SeenVersions(forgetAfterMs);
    this.claimsSeen = new SeenVersions(forgetAfterMs);
    this.waitForPods = options.waitForPods;
    this.waitForClaims = options.waitForClaims;
  }

  /** Subscribes to the informers (before the cache starts, so the first list arrives as adds). */
  attach<B extends KubernetesObject>(
    pods: Informer<Pod>,
    budgets: Informer<B>,
    describe: (budget: B) => TrackedBudget,
    claims?: Informer<ResourceClaim>,
  ): void {
    claims?.addEventHandler((e) => {
      if (e.type === "delete") this.deleteClaim(e.object);
      else this.upsertClaim(e.object);
    });
    budgets.addEventHandler((e) => {
      if (e.type === "delete") this.deleteBudget(describe(e.object));
      else this.upsertBudget(describe(e.object));
    });
    pods.addEventHandler((e) => {
      if (e.type === "delete") this.deletePod(e.object);
      else this.upsertPod(e.object);
    });
  }

  upsertBudget(budget: TrackedBudget): void {
    const ns = this.namespace(budget.namespace);
    const name = budget.name;
    const rule = JSON.stringify([budget.selector ?? null, budget.resources, budget.deviceClasses ?? []]);
    if (ns.budgets.get(name)?.rule === rule) return;
    const state: BudgetState = {
      selector: budget.selector,
      resources: budget.resources,
      deviceClasses: budget.deviceClasses ?? [],
      rule,
      allocatedMilli: 0,
      podCount: 0,
      terminating: new Map(),
      claimMilli: new Map(),
    };
    for (const pod of ns.pods.values()) add(state, pod, 1);
    for (const uid of ns.claims.keys()) recountClaim(ns, state, uid);
    ns.budgets.set(name, state);
  }

  deleteBudget(budget: TrackedBudget): void {
    this.namespaces.get(budget.namespace)?.budgets.delete(budget.name);
  }

  upsertPod(pod: Pod): void {
    const uid = pod.metadata?.uid ?? "";
    const ns = this.namespace(pod.metadata?.namespace ?? "");
    const old = ns.pods.get(uid);
    for (const state of ns.budgets.values()) {
      if (old) add(state, old, -1);
      add(state, pod, 1);
    }
    ns.pods.set(uid, pod);
    recountClaimsOf(ns, uid);
    this.podsSeen.upsert(pod.metadata?.namespace ?? "", uid, pod.metadata?.resourceVersion);
  }

  deletePod(pod: Pod): void {
    const uid = pod.metadata?.uid ?? "";
    const ns = this.namespaces.get(pod.metadata?.namespace ?? "");
    const old = ns?.pods.get(uid);
    if (ns && old) {
      for (const state of ns.budgets.values()) add(state, old, -1);
      ns.pods.delete(uid);
      recountClaimsOf(ns, uid);
    }
    this.podsSeen.delete(pod.metadata?.namespace ?? "", uid, pod.metadata?.resourceVersion, Date.now());
  }

  upsertClaim(claim: ResourceClaim): void {
    const uid = claim.metadata?.uid ?? "";
    const ns = this.namespace(claim.metadata?.namespace ?? "");
    const owner = extendedResourceClaimOwner(claim)?.uid;
    ns.claims.set(uid, claim);
    if (owner === undefined) {
      for (const state of ns.budgets.values()) recountClaim(ns, state, uid);
    } else {
      // Its siblings too: which claim of the pod is its earliest can change (extendedResourceClaimPod).
      const siblings = ns.claimsOfPod.get(owner) ?? new Set<string>();
      siblings.add(uid);
      ns.claimsOfPod.set(owner, siblings);
      recountClaimsOf(ns, owner);
    }
    this.claimsSeen.upsert(claim.metadata?.namespace ?? "", uid, claim.metadata?.resourceVersion);
  }

  deleteClaim(claim: ResourceClaim): void {
    const uid = claim.metadata?.uid ?? "";
    const ns = this.namespaces.get(claim.metadata?.namespace ?? "");
    if (ns?.claims.delete(uid)) {
      for (const state of ns.budgets.values()) recountClaim(ns, state, uid);
      const owner = extendedResourceClaimOwner(claim)?.uid;
      const siblings = owner === undefined ? undefined : ns.claimsOfPod.get(owner);
      if (owner !== undefined && siblings?.delete(uid)) {
        if (siblings.size === 0) ns.claimsOfPod.delete(owner);
        else recountClaimsOf(ns, owner);
      }
    }
    this.claimsSeen.delete(claim.metadata?.namespace ?? "", uid, claim.metadata?.resourceVersion, Date.now());
  }

  /** The pod a claim about to be admitted was made for, by this replica's cache (claims.ts, extendedResourceClaimPod). */
  extendedResourceClaimPod(claim: ResourceClaim): Pod | undefined {
    const ns = this.namespaces.get(claim.metadata?.namespace ?? "");
    return ns && extendedResourceClaimPod(claim, owners(ns));
  }

  /** A budget's usage at `now`; undefined until this replica's cache has seen the budget. */
  usage(namespace: string, name: string, now = Date.now()): TrackedUsage | undefined {
    const state = this.namespaces.get(namespace)?.budgets.get(name);
    if (!state) return undefined;
    let { allocatedMilli, podCount } = state;
    let nextChangeAt = Number.POSITIVE_INFINITY;
    for (const t of state.terminating.values()) {
      if (t.until > now) {
        nextChangeAt = Math.min(nextChangeAt, t.until);
        continue;
      }
      allocatedMilli -= t.milli;
      podCount -= 1;
    }
    return { allocatedMilli, podCount, nextChangeAt };
  }

  /**
   * Whether this replica's caches reflect what a reservation holds: for a create (no version) the pod
   * (or claim) is in its cache or was seen deleted; for a pod's update, the cache holds another version.
   */
  hasSeen(uid: string, resourceVersion = ""): boolean {
    return (
      this.podsSeen.seenAt(uid, resourceVersion) !== undefined || this.claimsSeen.seenAt(uid) !== undefined
    );
  }

  /**
   * What live reservations (settle's kept) add to this replica's count: the GPUs of those its caches
   * have not seen, and among them the grants, which every replica but the holder counts in full.
   */
  unseen<R extends TrackedReservation & { milliGPUs: number }>(
    reservations: readonly R[],
  ): { reservedMilli: number; grants: R[] } {
    let reservedMilli = 0;
    const grants: R[] = [];
    for (const r of reservations) {
      if (this.hasSeen(r.podUID, r.podResourceVersion)) continue;
      reservedMilli += r.milliGPUs;
      if (isGrant(r)) grants.push(r);
    }
    return { reservedMilli, grants };
  }

  /**
   * Releases the reservations this replica's caches have seen: they leave the list, and each kind's mark
   * moves up to the newest version its reservations were seen at. Every replica waits for its own caches
   * to pass the marks before it decides (waitForSettled), so it counts those pods and claims from its
   * caches instead, and a released reservation is never counted nowhere. Expired ones go too. Versions
   * that do not compare (not etcd's integers) are kept until they expire, as before settling existed.
   */
  settle<R extends TrackedReservation>(
    reservations: readonly R[],
    settled: SettledMarks,
    now: number,
  ): { kept: R[]; settled: SettledMarks } {
    const kept: R[] = [];
    const newest = { ...settled };
    for (const r of reservations) {
      if (Date.parse(r.expiresAt) <= now) continue;
      const kind = isClaimReservation(r) ? "claims" : "pods";
      const at =
        kind === "claims"
          ? this.claimsSeen.seenAt(r.podUID)
          : this.podsSeen.seenAt(r.podUID, r.podResourceVersion ?? "");
      const mark = newest[kind];
      const order = at === undefined ? undefined : mark === undefined ? 1 : compareResourceVersions(at, mark);
      if (at === undefined || order === undefined) {
        kept.push(r);
        continue;
      }
      if (order > 0) newest[kind] = at;
    }
    return { kept, settled: newest };
  }

  /** Whether this tracker has seen events at or past both marks in `namespace` (no mark: true). */
  passedSettled(namespace: string, settled: SettledMarks): boolean {
    const passed = (seen: SeenVersions, mark: string | undefined) =>
      mark === undefined || seen.passed(namespace, mark);
    return passed(this.podsSeen, settled.pods) && passed(this.claimsSeen, settled.claims);
  }

  /** Resolves true once this replica's Pod and ResourceClaim caches have passed the marks in `namespace`; false after timeoutMs. */
  async waitForSettled(namespace: string, settled: SettledMarks, timeoutMs: number): Promise<boolean> {
    const wait = async (seen: SeenVersions, mark: string | undefined, waiter: CacheWaiter | undefined) =>
      mark === undefined ||
      seen.passed(namespace, mark) ||
      (waiter ? waiter(namespace, mark, timeoutMs) : false);
    const [pods, claims] = await Promise.all([
      wait(this.podsSeen, settled.pods, this.waitForPods),
      wait(this.claimsSeen, settled.claims, this.waitForClaims),
    ]);
    return pods && claims;
  }

  private namespace(name: string): NamespaceState {
    let ns = this.namespaces.get(name);
    if (!ns) {
      ns = { pods: new Map(), claims: new Map(), claimsOfPod: new Map(), budgets: new Map() };
      this.namespaces.set(name, ns);
    }
    return ns;
  }
}

/** Adds (sign 1) or removes (sign -1) what `pod` holds under a budget. */
function add(state: BudgetState, pod: Pod, sign: 1 | -1): void {
  const until = countsUntil(pod);
  if (until <= 0) return; // Succeeded/Failed never count
  if (!selectorMatches(state.selector, pod.metadata?.labels)) return;
  const milli = podMilliGPUs(pod, state.resources);
  if (milli <= 0) return;
  state.allocatedMilli += sign * milli;
  state.podCount += sign;
  const uid = pod.metadata?.uid ?? "";
  if (sign < 0) state.terminating.delete(uid);
  else if (Number.isFinite(until)) state.terminating.set(uid, { until, milli });
}

function owners(ns: NamespaceState): ClaimOwners {
  return {
    pod: (uid) => ns.pods.get(uid),
    *claimsOf(podUID) {
      for (const uid of ns.claimsOfPod.get(podUID) ?? []) {
        const claim = ns.claims.get(uid);
        if (claim) yield claim;
      }
    },
  };
}

/** Brings what claim `uid` adds to a budget up to date: what it adds now (0 once gone), less what it added. */
function recountClaim(ns: NamespaceState, state: BudgetState, uid: string): void {
  const claim = ns.claims.get(uid);
  const milli = claim ? claimCountedMilli(claim, state, extendedResourceClaimPod(claim, owners(ns))) : 0;
  const before = state.claimMilli.get(uid) ?? 0;
  state.allocatedMilli += milli - before;
  if (milli !== 0) state.claimMilli.set(uid, milli);
  else state.claimMilli.delete(uid);
}

/** Recounts the extended-resource claims of pod `podUID` under every budget: their count follows the pod. */
function recountClaimsOf(ns: NamespaceState, podUID: string): void {
  const claims = ns.claimsOfPod.get(podUID);
  if (!claims) return;
  for (const state of ns.budgets.values()) for (const uid of claims) recountClaim(ns, state, uid);
}
