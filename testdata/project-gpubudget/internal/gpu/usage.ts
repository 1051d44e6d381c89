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
  podUID: string;
  podResourceVersion?: string;
  expiresAt: string;
}

/** Waits until this replica's Pod cache has passed `resourceVersion` in `namespace` (false on timeout). */
export type PodCacheWaiter = (
  namespace: string,
  resourceVersion: string,
  timeoutMs: number,
) => Promise<boolean>;

interface NamespaceState {
  pods: Map<string, Pod>;
  /** uid -> ResourceClaim: each counts once, in its own namespace (claims.ts). */
  claims: Map<string, ResourceClaim>;
  /** pod uid -> uids of the extended-resource claims it controls, whose count depends on the pod (claims.ts). */
  claimsOfPod: Map<string, Set<string>>;
  budgets: Map<string, BudgetState>;
  /** The newest pod version seen here: a version at or below it has passed this replica's cache. */
  newestVersion?: string;
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
  /** uid -> resourceVersion of every pod in the cache. */
  private readonly versions = new Map<string, string>();
  /** uid -> when this replica saw the pod deleted, and the version it was deleted at; kept for `forgetAfterMs`. */
  private readonly gone = new Map<string, { at: number; resourceVersion: string }>();
  /**
   * uid -> when this replica's ResourceClaim cache saw the claim (still there, or deleted within
   * `forgetAfterMs`). A claim's reservation stops adding to a decision once seen here (hasSeen), but it is
   * never released early (seenAt is for pods only): the settled high-water mark follows the Pod cache, so
   * a claim's reservation stays on the budget until it expires and no replica can miss it.
   */
  private readonly claimsSeen = new Map<string, number>();
  private readonly forgetAfterMs: number;
  private readonly waitForPods?: PodCacheWaiter;

  /**
   * `waitForPods` is the Pod cache's "has the watch passed this version" (usageTrackerFor gives the
   * manager cache's); without it (unit tests) a version counts as passed once this tracker has seen a
   * pod event at or past it in that namespace.
   */
  constructor(options: { forgetAfterMs?: number; waitForPods?: PodCacheWaiter } = {}) {
    this.forgetAfterMs = options.forgetAfterMs ?? 120_000;
    this.waitForPods = options.waitForPods;
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
    this.versions.set(uid, pod.metadata?.resourceVersion ?? "");
    this.observe(ns, pod.metadata?.resourceVersion);
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
    this.versions.delete(uid);
    const now = Date.now();
    const resourceVersion = pod.metadata?.resourceVersion ?? "";
    this.gone.set(uid, { at: now, resourceVersion });
    if (ns) this.observe(ns, resourceVersion);
    // Forget old deletions in passing; the oldest are first (Map keeps insertion order).
    for (const [key, { at }] of this.gone) {
      if (now - at < this.forgetAfterMs) break;
      this.gone.delete(key);
    }
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
    this.claimsSeen.set(uid, Date.now());
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
    const now = Date.now();
    this.claimsSeen.delete(uid); // re-inserted last, so the oldest stay first
    this.claimsSeen.set(uid, now);
    for (const [key, at] of this.claimsSeen) {
      if (now - at < this.forgetAfterMs) break;
      if (ns?.claims.has(key)) continue;
      this.claimsSeen.delete(key);
    }
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
    for (const t of state.terminating.values()) {
      if (t.until > now) continue;
      allocatedMilli -= t.milli;
      podCount -= 1;
    }
    return { allocatedMilli, podCount };
  }

  /**
   * Whether this replica's cache reflects the pod past `resourceVersion`: for a create (no version) the
   * pod is in the cache or was seen deleted; for an update, the cache holds another version of it.
   */
  hasSeen(uid: string, resourceVersion = ""): boolean {
    return this.seenAt(uid, resourceVersion) !== undefined || this.claimsSeen.has(uid);
  }

  /** The version at which `hasSeen(uid, resourceVersion)` became true (the deletion's, for a pod seen go). */
  seenAt(uid: string, resourceVersion = ""): string | undefined {
    const gone = this.gone.get(uid);
    if (gone) return gone.resourceVersion;
    const seen = this.versions.get(uid);
    return seen !== undefined && seen !== resourceVersion ? seen : undefined;
  }

  /**
   * Releases the reservations this replica's cache has seen: they leave the list, and `settled` moves up
   * to the newest version they were seen at. Every replica waits for its own cache to pass `settled`
   * before it decides (waitForSettled), so it counts those pods from its cache instead, and a released
   * reservation is never counted nowhere. Expired ones go too. Pods whose versions do not compare (not
   * etcd's integers) are kept until they expire, as before settling existed.
   */
  settle<R extends TrackedReservation>(
    reservations: readonly R[],
    settled: string | undefined,
    now: number,
  ): { kept: R[]; settled?: string } {
    const kept: R[] = [];
    let newest = settled;
    for (const r of reservations) {
      if (Date.parse(r.expiresAt) <= now) continue;
      const at = this.seenAt(r.podUID, r.podResourceVersion);
      const order =
        at === undefined ? undefined : newest === undefined ? 1 : compareResourceVersions(at, newest);
      if (at === undefined || order === undefined) {
        kept.push(r);
        continue;
      }
      if (order > 0) newest = at;
    }
    return { kept, settled: newest };
  }

  /** Whether this tracker has seen a pod event at or past `settled` in `namespace` (no mark: true). */
  passedSettled(namespace: string, settled: string | undefined): boolean {
    return settled === undefined || this.observedPast(namespace, settled);
  }

  /** Resolves true once this replica's Pod cache has passed `settled` in `namespace`; false after timeoutMs. */
  async waitForSettled(namespace: string, settled: string | undefined, timeoutMs: number): Promise<boolean> {
    if (settled === undefined || this.passedSettled(namespace, settled)) return true;
    if (this.waitForPods) return this.waitForPods(namespace, settled, timeoutMs);
    return false;
  }

  private observedPast(namespace: string, resourceVersion: string): boolean {
    const newest = this.namespaces.get(namespace)?.newestVersion;
    if (newest === undefined) return false;
    const order = compareResourceVersions(newest, resourceVersion);
    return order !== undefined && order >= 0;
  }

  private observe(ns: NamespaceState, resourceVersion: string | undefined): void {
    if (!resourceVersion) return;
    const order =
      ns.newestVersion === undefined ? 1 : compareResourceVersions(resourceVersion, ns.newestVersion);
    if (order !== undefined && order > 0) ns.newestVersion = resourceVersion;
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
