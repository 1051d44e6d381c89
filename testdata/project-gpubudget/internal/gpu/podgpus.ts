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

import type { LabelSelector, Pod } from "@kbts/runtime";

/**
 * How many units of an extended resource (GPUs) a pod holds, counted the way the scheduler and
 * ResourceQuota count them (k8s.io/component-helpers/resource PodRequests):
 *
 *   max(sum over containers + restartable (sidecar) init containers,
 *       max over init containers of (its request + the sidecars started before it))
 *   plus the pod overhead
 *
 * Per container the request is used, and the limit when no request is set: for extended resources the
 * API server copies the limit into the request on create, so both spellings mean the same thing.
 */

type ResourceList = Record<string, string | number> | undefined;

interface ContainerLike {
  restartPolicy?: string;
  resources?: { requests?: ResourceList; limits?: ResourceList };
}

/** Decimal and binary suffixes of resource.Quantity. */
const SUFFIXES: Record<string, number> = {
  "": 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E)?)$/;

/**
 * A resource.Quantity as a whole number of units, rounded up like Quantity.Value().
 * Throws on text that is not a quantity (the API server would never store one).
 */
export function quantityValue(q: string | number | undefined): number {
  if (q === undefined) return 0;
  if (typeof q === "number") return Math.ceil(q);
  const m = QUANTITY.exec(q.trim());
  if (!m) throw new Error(`invalid quantity ${JSON.stringify(q)}`);
  const base = Number(m[1]);
  const scale = m[2] ? 10 ** Number(m[2].slice(1)) : (SUFFIXES[m[3] ?? ""] ?? 1);
  // Round the product to 9 decimals first so "1.1k" is 1100, not 1100.0000000000002 rounded up.
  return Math.ceil(Number((base * scale).toFixed(9)));
}

/** The container's request for `resource`, or its limit when the request is absent. */
export function containerGPUs(container: ContainerLike, resource: string): number {
  const requests = container.resources?.requests;
  if (requests && resource in requests) return quantityValue(requests[resource]);
  return quantityValue(container.resources?.limits?.[resource]);
}

/** The scheduler's effective request of one pod for `resource`. */
export function podGPUs(pod: Pod, resource: string): number {
  const spec = pod.spec;
  if (!spec) return 0;
  let containers = 0;
  for (const c of spec.containers ?? []) containers += containerGPUs(c, resource);

  let sidecars = 0; // restartable init containers started so far: they keep running beside later ones
  let initPeak = 0;
  for (const c of spec.initContainers ?? []) {
    const own = containerGPUs(c, resource);
    let peak: number;
    if ((c as ContainerLike).restartPolicy === "Always") {
      containers += own; // a sidecar runs for the whole life of the pod
      sidecars += own;
      peak = sidecars;
    } else {
      peak = own + sidecars; // a regular init container runs beside the sidecars before it
    }
    initPeak = Math.max(initPeak, peak);
  }
  const overhead = quantityValue(
    (spec as { overhead?: Record<string, string | number> }).overhead?.[resource],
  );
  return Math.max(containers, initPeak) + overhead;
}

/** The scheduling gate a Queue budget's pods wait behind until the operator releases them (internal/queue). */
export const QUEUE_GATE = "capacity.lab.example.com/gpubudget-queue";

/** Whether the pod waits behind QUEUE_GATE (the operator's gate; other gates are left alone). */
export function isQueued(pod: Pod): boolean {
  return (pod.spec?.schedulingGates ?? []).some((g) => g.name === QUEUE_GATE);
}

/**
 * Until when (ms since the epoch) a pod counts, by ResourceQuota's rule (QuotaV1Pod): a Succeeded or
 * Failed pod never counts (0). Any other phase counts, Unknown included (a node that stopped reporting
 * may still run it), until the pod is stuck terminating: once deletionTimestamp plus
 * deletionGracePeriodSeconds has passed it stops counting, so pods on a lost node free their budget.
 * A pod not being deleted counts for ever (Infinity).
 */
export function countsUntil(pod: Pod): number {
  const phase = pod.status?.phase;
  if (phase === "Succeeded" || phase === "Failed") return 0;
  // A pod waiting in a Queue budget's line is not scheduled and holds nothing; it counts once released.
  if (isQueued(pod)) return 0;
  const deletion = pod.metadata?.deletionTimestamp;
  const grace = pod.metadata?.deletionGracePeriodSeconds;
  if (deletion === undefined || deletion === null || grace === undefined || grace === null)
    return Number.POSITIVE_INFINITY;
  return Date.parse(String(deletion)) + grace * 1000;
}

/** Whether a pod counts at `now` (ResourceQuota's rule, see countsUntil). */
export function isCounted(pod: Pod, now = Date.now()): boolean {
  return countsUntil(pod) > now;
}

/** One resource name a budget counts, and how many GPUs one unit of it is worth. */
export interface BudgetResource {
  name: string;
  /** A Quantity ("1", "0.125", "125m"); 1 when absent. */
  weight?: string | number;
}

/** The resource a budget counts when it names none (the CRD defaults spec.resourceName to it too). */
export const DEFAULT_RESOURCE_NAME = "nvidia.com/gpu";

/** What a budget counts: spec.resources when set, else its single spec.resourceName with weight 1. */
export function budgetResources(spec: {
  resources?: BudgetResource[];
  resourceName?: string;
}): BudgetResource[] {
  if (spec.resources && spec.resources.length > 0) return spec.resources;
  return [{ name: spec.resourceName ?? DEFAULT_RESOURCE_NAME }];
}

/** A resource.Quantity in thousandths, rounded up (so weights like 0.125 stay exact integers). */
export function quantityMilli(q: string | number | undefined): number {
  if (q === undefined) return 0;
  if (typeof q === "number") return Math.ceil(Number((q * 1000).toFixed(6)));
  const m = QUANTITY.exec(q.trim());
  if (!m) throw new Error(`invalid quantity ${JSON.stringify(q)}`);
  const scale = m[2] ? 10 ** Number(m[2].slice(1)) : (SUFFIXES[m[3] ?? ""] ?? 1);
  return Math.ceil(Number((Number(m[1]) * scale * 1000).toFixed(6)));
}

/** The GPUs (in thousandths) a pod holds under a budget's resources: each name's units times its weight. */
export function podMilliGPUs(pod: Pod, resources: readonly BudgetResource[]): number {
  return weightedMilliGPUs(pod, weighResources(resources));
}

/** A budget's resources with their weights parsed (in thousandths), and a key naming that list. */
interface WeighedResources {
  weights: [name: string, milli: number][];
  key: string;
}

function weighResources(resources: readonly BudgetResource[]): WeighedResources {
  const weights = resources.map((r): [string, number] => [r.name, quantityMilli(r.weight ?? 1)]);
  return { weights, key: JSON.stringify(weights) };
}

/**
 * What deep-frozen pods, as the cache lists them uncopied (the controller's recount), hold under each
 * list of weighed resources: such a pod object never changes (a new version is a new object), so a
 * namespace's thousands of pods are parsed once, not on every one of its reconciles. Held weakly: a
 * pod the cache drops is forgotten with it.
 */
const milliOfFrozenPod = new WeakMap<Pod, Map<string, number>>();

function weightedMilliGPUs(pod: Pod, resources: WeighedResources): number {
  const frozen = Object.isFrozen(pod) && Object.isFrozen(pod.spec ?? {});
  const known = frozen ? milliOfFrozenPod.get(pod) : undefined;
  const cached = known?.get(resources.key);
  if (cached !== undefined) return cached;
  let milli = 0;
  for (const [name, weight] of resources.weights) {
    const units = podGPUs(pod, name);
    if (units > 0) milli += units * weight;
  }
  if (frozen) {
    if (known) known.set(resources.key, milli);
    else milliOfFrozenPod.set(pod, new Map([[resources.key, milli]]));
  }
  return milli;
}

/** Thousandths of a GPU as people read them: "6", "1.25". */
export function formatGPUs(milli: number): string {
  return Number.isInteger(milli / 1000) ? String(milli / 1000) : String(Number((milli / 1000).toFixed(3)));
}

/** The cap and resources as a refusal or event names them: "nvidia.com/gpu", or "GPUs (a, b×0.125)". */
export function describeResources(resources: readonly BudgetResource[]): string {
  const [only] = resources;
  if (resources.length === 1 && only && quantityMilli(only.weight ?? 1) === 1000) return only.name;
  const parts = resources.map((r) => {
    const w = quantityMilli(r.weight ?? 1);
    return w === 1000 ? r.name : `${r.name}×${formatGPUs(w)}`;
  });
  return `GPUs (${parts.join(", ")})`;
}

/** metav1.LabelSelector semantics: an absent selector matches everything, an empty one too. */
export function selectorMatches(
  selector: LabelSelector | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  if (!selector) return true;
  const have = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    if (have[k] !== v) return false;
  }
  for (const req of selector.matchExpressions ?? []) {
    const present = Object.hasOwn(have, req.key);
    const value = have[req.key];
    const values = req.values ?? [];
    switch (req.operator) {
      case "In":
        if (!present || !values.includes(value as string)) return false;
        break;
      case "NotIn":
        if (present && values.includes(value as string)) return false;
        break;
      case "Exists":
        if (!present) return false;
        break;
      case "DoesNotExist":
        if (present) return false;
        break;
      default:
        return false; // an operator we do not know matches nothing, as apimachinery refuses it
    }
  }
  return true;
}

/** What the pods of a namespace hold under a budget (its claims are counted by claims.ts). */
export interface BudgetUsage {
  /** GPUs held by the counted pods, in thousandths (weights make fractions). */
  allocatedMilli: number;
  /** Pods that hold at least one GPU of the budget's resources. */
  podCount: number;
  /** Names of those pods, for the utilization query; only collected when asked for. */
  podNames: string[];
  /** The next moment (ms) a counted terminating pod stops counting; Infinity when none will. */
  nextChangeAt: number;
}

export interface CountRule {
  resources: readonly BudgetResource[];
  selector?: LabelSelector;
}

/** Sums what the pods of one namespace that a budget selects hold at `now`. */
export function budgetUsage(
  pods: readonly Pod[],
  rule: CountRule,
  options: { now?: number; podNames?: boolean } = {},
): BudgetUsage {
  const now = options.now ?? Date.now();
  const usage: BudgetUsage = {
    allocatedMilli: 0,
    podCount: 0,
    podNames: [],
    nextChangeAt: Number.POSITIVE_INFINITY,
  };
  const resources = weighResources(rule.resources);
  for (const pod of pods) {
    const until = countsUntil(pod);
    if (until <= now) continue;
    if (!selectorMatches(rule.selector, pod.metadata?.labels)) continue;
    const milli = weightedMilliGPUs(pod, resources);
    if (milli <= 0) continue;
    usage.allocatedMilli += milli;
    usage.podCount += 1;
    usage.nextChangeAt = Math.min(usage.nextChangeAt, until);
    if (options.podNames) usage.podNames.push(pod.metadata?.name ?? "");
  }
  usage.podNames.sort();
  return usage;
}

/**
 * A cache transform for Pods (ManagerOptions.cache.transforms["v1/Pod"]): keeps only what counting
 * needs, so an operator watching tens of thousands of pods holds a fraction of their size in memory.
 */
export function slimPod<T extends { metadata?: Pod["metadata"]; spec?: Pod["spec"]; status?: Pod["status"] }>(
  obj: T,
): T {
  const pod = obj as Pod;
  const keepResources = (c: ContainerLike & { name?: string }) => ({
    name: c.name,
    restartPolicy: c.restartPolicy,
    resources: c.resources && { requests: c.resources.requests, limits: c.resources.limits },
  });
  const m = pod.metadata ?? {};
  const spec = pod.spec as (Pod["spec"] & { overhead?: Record<string, string | number> }) | undefined;
  return {
    apiVersion: (obj as { apiVersion?: string }).apiVersion,
    kind: (obj as { kind?: string }).kind,
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      generation: m.generation,
      labels: m.labels,
      deletionTimestamp: m.deletionTimestamp,
      deletionGracePeriodSeconds: m.deletionGracePeriodSeconds,
      // spec.gpuHours (internal/ledger): whether the pod carries its finalizer.
      finalizers: m.finalizers,
    },
    spec: spec && {
      containers: (spec.containers ?? []).map(keepResources),
      initContainers: spec.initContainers?.map(keepResources),
      overhead: spec.overhead,
      schedulingGates: spec.schedulingGates,
    },
    // spec.gpuHours meters a pod from startTime to its containers' last finishedAt.
    status: pod.status && {
      phase: pod.status.phase,
      startTime: pod.status.startTime,
      containerStatuses: pod.status.containerStatuses?.map((c) => ({
        name: c.name,
        state: c.state?.terminated && { terminated: { finishedAt: c.state.terminated.finishedAt } },
      })),
      // The claim the scheduler made for the pod's DRA extended resources (claims.ts, extendedResourceClaimPod).
      extendedResourceClaimStatus: pod.status.extendedResourceClaimStatus && {
        resourceClaimName: pod.status.extendedResourceClaimStatus.resourceClaimName,
        requestMappings: pod.status.extendedResourceClaimStatus.requestMappings?.map((m) => ({
          resourceName: m.resourceName,
          requestName: m.requestName,
        })),
      },
    },
  } as unknown as T;
}
