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
  defineKind,
  type KubernetesObject,
  type LabelSelector,
  type ObjectMeta,
  type OwnerReference,
  type Pod,
} from "@kbts/runtime";
import {
  type BudgetResource,
  budgetResources,
  countsUntil,
  describeResources,
  formatGPUs,
  podMilliGPUs,
  quantityMilli,
  selectorMatches,
} from "./podgpus.js";

/**
 * GPUs asked for through Dynamic Resource Allocation, counted by ResourceQuota's rules for
 * `<class>.deviceclass.resource.k8s.io/devices` (Kubernetes' claim quota evaluator):
 *
 * - the claim is the unit: it counts once in its own namespace while it exists, however many pods
 *   share it and whether or not it is allocated yet (as ResourceQuota charges it from its creation);
 * - per request, allocationMode ExactCount counts `count` devices (1 when unset), All counts the most
 *   one claim can be allocated (AllocationResultsMaxSize), an unknown mode counts nothing;
 * - a request with firstAvailable counts, per DeviceClass, its largest alternative;
 * - a claim the scheduler made for a pod's extended resource (DRA extended resources, KEP-5004) adds only
 *   what its devices exceed the pod's own count under the budget, so a budget counting both
 *   `nvidia.com/gpu` and the DeviceClass behind it counts those GPUs once, and one counting only the
 *   DeviceClass still counts them. Such a claim is trusted only as kube-apiserver's claim evaluator trusts
 *   it (extendedResourceClaimPod): the annotation and owner reference alone, which any tenant can write,
 *   leave the claim counted in full.
 */

/** The most devices one claim can be allocated (resource.k8s.io AllocationResultsMaxSize). */
export const ALLOCATION_RESULTS_MAX_SIZE = 32;

/** Marks the claim the scheduler creates for a pod's DRA-backed extended resources. */
export const EXTENDED_RESOURCE_CLAIM_ANNOTATION = "resource.kubernetes.io/extended-resource-claim";

/** One way of satisfying a request: a DeviceClass, a mode and a count. */
export interface DeviceSubRequest {
  name?: string;
  deviceClassName?: string;
  allocationMode?: string;
  count?: number;
}

/** A request of a claim: exactly one way, or firstAvailable's alternatives in order of preference. */
export interface DeviceRequest {
  name?: string;
  exactly?: DeviceSubRequest;
  firstAvailable?: DeviceSubRequest[];
}

/** The part of a resource.k8s.io/v1 ResourceClaim the count needs. */
export interface ResourceClaim extends KubernetesObject {
  metadata?: ObjectMeta;
  spec?: { devices?: { requests?: DeviceRequest[] } };
  status?: {
    allocation?: unknown;
    reservedFor?: { resource?: string; name?: string; uid?: string }[];
  };
}

export const ResourceClaimKind = defineKind<ResourceClaim>({
  group: "resource.k8s.io",
  version: "v1",
  kind: "ResourceClaim",
  plural: "resourceclaims",
  namespaced: true,
});

/** One DeviceClass a budget counts, and how many GPUs one device of it is worth. */
export interface BudgetDeviceClass {
  name: string;
  /** A Quantity ("1", "0.125", "125m"); 1 when absent. */
  weight?: string | number;
}

/** Devices one way of a request counts: its count as asked, All at the most a claim can hold. */
function subRequestDevices(sub: DeviceSubRequest): number {
  const mode = sub.allocationMode ?? "ExactCount";
  if (mode === "ExactCount") return sub.count ?? 1;
  if (mode === "All") return ALLOCATION_RESULTS_MAX_SIZE;
  return 0; // a mode this operator does not know counts nothing, as in ResourceQuota after a downgrade
}

/** The devices a claim counts per DeviceClass (ResourceQuota's rules, see above). */
export function claimDevices(claim: ResourceClaim, skipRequests?: ReadonlySet<string>): Map<string, number> {
  const devices = new Map<string, number>();
  const add = (deviceClass: string, n: number) =>
    devices.set(deviceClass, (devices.get(deviceClass) ?? 0) + n);
  for (const request of claim.spec?.devices?.requests ?? []) {
    if (skipRequests?.has(request.name ?? "")) continue;
    if (request.firstAvailable && request.firstAvailable.length > 0) {
      // The worst case per class: whichever alternative the scheduler picks fits under it.
      const largest = new Map<string, number>();
      for (const sub of request.firstAvailable) {
        const deviceClass = sub.deviceClassName ?? "";
        largest.set(deviceClass, Math.max(largest.get(deviceClass) ?? 0, subRequestDevices(sub)));
      }
      for (const [deviceClass, n] of largest) add(deviceClass, n);
    } else if (request.exactly) {
      add(request.exactly.deviceClassName ?? "", subRequestDevices(request.exactly));
    }
  }
  return devices;
}

/** The Pod a claim names as made for its DRA extended resources: annotated, and controlled by that Pod. */
export function extendedResourceClaimOwner(claim: ResourceClaim): OwnerReference | undefined {
  if (claim.metadata?.annotations?.[EXTENDED_RESOURCE_CLAIM_ANNOTATION] !== "true") return undefined;
  const owner = (claim.metadata?.ownerReferences ?? []).find((o) => o.controller === true);
  return owner?.apiVersion === "v1" && owner.kind === "Pod" ? owner : undefined;
}

/** What extendedResourceClaimPod reads of one namespace: its pods by uid, and the claims each pod controls. */
export interface ClaimOwners {
  pod(uid: string): Pod | undefined;
  /** The extended-resource claims (extendedResourceClaimOwner) controlled by the pod `uid`. */
  claimsOf(podUID: string): Iterable<ResourceClaim>;
}

/**
 * ClaimOwners over one namespace's pods and claims, as listed. The pods are indexed on the first lookup
 * only: a namespace without extended-resource claims (most) costs its reconciles nothing here.
 */
export function claimOwners(pods: readonly Pod[], claims: Iterable<ResourceClaim>): ClaimOwners {
  let byUID: Map<string, Pod> | undefined;
  const pod = (uid: string): Pod | undefined => {
    byUID ??= new Map(pods.map((p) => [p.metadata?.uid ?? "", p]));
    return byUID.get(uid);
  };
  const owned = new Map<string, ResourceClaim[]>();
  for (const claim of claims) {
    const owner = extendedResourceClaimOwner(claim);
    if (!owner) continue;
    const list = owned.get(owner.uid) ?? [];
    list.push(claim);
    owned.set(owner.uid, list);
  }
  return { pod, claimsOf: (uid) => owned.get(uid) ?? [] };
}

/**
 * The pod a KEP-5004 claim was made for, checked as kube-apiserver's claim quota evaluator checks it
 * (getVerifiedPodUsage): the pod the claim names exists with that uid, and its status names this claim
 * as its extended-resource claim, or names none yet (the scheduler writes it after creating the claim)
 * while this is the pod's earliest such claim (by creation time, then name). Undefined otherwise, and the
 * claim counts in full: a tenant cannot hide a claim behind a pod by annotating it.
 */
export function extendedResourceClaimPod(claim: ResourceClaim, owners: ClaimOwners): Pod | undefined {
  const ref = extendedResourceClaimOwner(claim);
  if (!ref) return undefined;
  const pod = owners.pod(ref.uid);
  if (!pod || pod.metadata?.name !== ref.name) return undefined;
  const named = pod.status?.extendedResourceClaimStatus?.resourceClaimName;
  if (named !== undefined) return named === claim.metadata?.name ? pod : undefined;
  const created = Date.parse(String(claim.metadata?.creationTimestamp ?? ""));
  const name = claim.metadata?.name ?? "";
  for (const other of owners.claimsOf(ref.uid)) {
    if (other.metadata?.uid === claim.metadata?.uid) continue;
    const at = Date.parse(String(other.metadata?.creationTimestamp ?? ""));
    if (at < created || (at === created && (other.metadata?.name ?? "") < name)) return undefined;
  }
  return pod;
}

/**
 * The GPUs (in thousandths) a claim holds under a budget's device classes: each class's devices times
 * its weight (the requests named in `skipRequests` left out).
 */
export function claimMilliGPUs(
  claim: ResourceClaim,
  deviceClasses: readonly BudgetDeviceClass[],
  skipRequests?: ReadonlySet<string>,
): number {
  if (deviceClasses.length === 0) return 0;
  const devices = claimDevices(claim, skipRequests);
  let milli = 0;
  for (const c of deviceClasses) {
    const n = devices.get(c.name) ?? 0;
    if (n > 0) milli += n * quantityMilli(c.weight ?? 1);
  }
  return milli;
}

/** How a budget counts claims: its DeviceClasses, its selector, and the resources it counts of pods. */
export interface ClaimRule {
  deviceClasses: readonly BudgetDeviceClass[];
  resources: readonly BudgetResource[];
  selector?: LabelSelector;
}

/**
 * The GPUs (in thousandths) a claim adds under a budget: claimMilliGPUs of a selected claim, less what
 * its verified owner pod (extendedResourceClaimPod) already counts under the same budget.
 * - Once the pod's status names the claim, its requestMappings say which of the claim's requests
 *   serves which of the pod's extended resources: those serving a resource the budget counts add
 *   nothing here, the others count in full.
 * - Before that (the scheduler writes the status after it creates the claim), as ResourceQuota does:
 *   the claim's GPUs less the pod's.
 */
export function claimCountedMilli(claim: ResourceClaim, rule: ClaimRule, owner: Pod | undefined): number {
  if (rule.deviceClasses.length === 0 || !selectorMatches(rule.selector, claim.metadata?.labels)) return 0;
  // By phase only, not by the deletion deadline: the tracker and the recount must agree at any moment.
  if (!owner || !(countsUntil(owner) > 0 && selectorMatches(rule.selector, owner.metadata?.labels))) {
    return claimMilliGPUs(claim, rule.deviceClasses);
  }
  const status = owner.status?.extendedResourceClaimStatus;
  if (status && status.resourceClaimName === claim.metadata?.name && status.requestMappings?.length) {
    const counted = new Set(rule.resources.map((r) => r.name));
    const served = new Set(
      status.requestMappings.filter((m) => counted.has(m.resourceName)).map((m) => m.requestName),
    );
    return claimMilliGPUs(claim, rule.deviceClasses, served);
  }
  return Math.max(0, claimMilliGPUs(claim, rule.deviceClasses) - podMilliGPUs(owner, rule.resources));
}

/** Whether a claim asks for devices, none of them of a class the budget counts (a pod's generated claim aside). */
export function isUncountedClaim(claim: ResourceClaim, deviceClasses: readonly BudgetDeviceClass[]): boolean {
  if (extendedResourceClaimOwner(claim)) return false;
  const devices = claimDevices(claim);
  let asks = false;
  for (const [deviceClass, n] of devices) {
    if (n <= 0) continue;
    if (deviceClasses.some((c) => c.name === deviceClass)) return false;
    asks = true;
  }
  return asks;
}

export interface ClaimUsage {
  /** GPUs the counted claims hold, in thousandths. */
  allocatedMilli: number;
  /** Claims that hold at least one device of the budget's classes. */
  claimCount: number;
  /** Selected claims that ask for devices of no class the budget counts. */
  uncountedClaims: number;
}

/** Sums what the claims of one namespace that a budget selects hold; `pods` are the namespace's. */
export function budgetClaimUsage(
  claims: readonly ResourceClaim[],
  pods: readonly Pod[],
  rule: ClaimRule,
): ClaimUsage {
  const usage: ClaimUsage = { allocatedMilli: 0, claimCount: 0, uncountedClaims: 0 };
  const owners = claimOwners(pods, claims);
  for (const claim of claims) {
    if (!selectorMatches(rule.selector, claim.metadata?.labels)) continue;
    const milli = claimCountedMilli(claim, rule, extendedResourceClaimPod(claim, owners));
    if (milli > 0) {
      usage.allocatedMilli += milli;
      usage.claimCount += 1;
    } else if (isUncountedClaim(claim, rule.deviceClasses)) {
      usage.uncountedClaims += 1;
    }
  }
  return usage;
}

/**
 * What a budget counts as a refusal or event names it: its resources (describeResources), and its
 * DeviceClasses when it has any: "GPUs (nvidia.com/gpu, DeviceClass gpu.nvidia.com)".
 */
export function describeBudget(spec: {
  resources?: BudgetResource[];
  resourceName?: string;
  deviceClasses?: readonly BudgetDeviceClass[];
}): string {
  const resources = budgetResources(spec);
  const classes = spec.deviceClasses ?? [];
  if (classes.length === 0) return describeResources(resources);
  const parts = [
    ...resources.map((r) => ({ name: r.name, weight: r.weight })),
    ...classes.map((c) => ({ name: `DeviceClass ${c.name}`, weight: c.weight })),
  ].map((p) => {
    const w = quantityMilli(p.weight ?? 1);
    return w === 1000 ? p.name : `${p.name}×${formatGPUs(w)}`;
  });
  return `GPUs (${parts.join(", ")})`;
}
