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

import type { Pod } from "@kbts/runtime";
import { describe, expect, it } from "vitest";
import { budgetClaimUsage, EXTENDED_RESOURCE_CLAIM_ANNOTATION, type ResourceClaim } from "./claims.js";
import { budgetUsage, DEFAULT_RESOURCE_NAME as GPU } from "./podgpus.js";
import { UsageTracker } from "./usage.js";

function pod(
  uid: string,
  gpus: number,
  extra: { labels?: Record<string, string>; phase?: NonNullable<Pod["status"]>["phase"]; rv?: string } = {},
): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: uid, uid, namespace: "ns", labels: extra.labels, resourceVersion: extra.rv ?? "1" },
    spec: { containers: [{ name: "c", image: "x", resources: { limits: { [GPU]: String(gpus) } } }] },
    status: { phase: extra.phase ?? "Running" },
  };
}

const ml = {
  namespace: "ns",
  name: "ml",
  selector: { matchLabels: { team: "ml" } },
  resources: [{ name: GPU }],
};

describe("UsageTracker", () => {
  it("keeps a budget's usage equal to a recount through adds, relabels, phase changes and deletes", () => {
    const t = new UsageTracker();
    const pods = new Map<string, Pod>();
    const upsert = (p: Pod) => {
      pods.set(p.metadata?.uid ?? "", p);
      t.upsertPod(p);
    };
    const check = () => {
      const { allocatedMilli, podCount, nextChangeAt } = budgetUsage([...pods.values()], ml);
      expect(t.usage("ns", "ml")).toEqual({ allocatedMilli, podCount, nextChangeAt });
    };
    upsert(pod("a", 2, { labels: { team: "ml" } }));
    t.upsertBudget(ml); // a budget created after its pods counts them
    check();
    upsert(pod("b", 3, { labels: { team: "web" } }));
    check();
    upsert(pod("b", 3, { labels: { team: "ml" }, rv: "2" }));
    check();
    expect(t.usage("ns", "ml")?.allocatedMilli).toBe(5000);
    upsert(pod("a", 2, { labels: { team: "ml" }, phase: "Succeeded", rv: "2" }));
    check();
    const b = pods.get("b") as Pod;
    pods.delete("b");
    t.deletePod(b);
    check();
    expect(t.usage("ns", "ml")).toEqual({
      allocatedMilli: 0,
      podCount: 0,
      nextChangeAt: Number.POSITIVE_INFINITY,
    });
  });

  it("drops a terminating pod at its deletion timestamp plus grace, without any event", () => {
    const t = new UsageTracker();
    t.upsertBudget({ ...ml, selector: undefined });
    const stuck = pod("s", 4);
    const at = Date.now();
    stuck.metadata = {
      ...stuck.metadata,
      deletionTimestamp: new Date(at).toISOString(),
      deletionGracePeriodSeconds: 30,
    };
    t.upsertPod(stuck);
    // Until then it counts, and the usage says when that changes (the reconciler comes back then).
    expect(t.usage("ns", "ml", at + 29_000)).toEqual({
      allocatedMilli: 4000,
      podCount: 1,
      nextChangeAt: at + 30_000,
    });
    expect(t.usage("ns", "ml", at + 31_000)).toEqual({
      allocatedMilli: 0,
      podCount: 0,
      nextChangeAt: Number.POSITIVE_INFINITY,
    });
  });

  it("knows which pods (and which versions) this cache has seen", () => {
    const t = new UsageTracker();
    expect(t.hasSeen("x")).toBe(false);
    t.upsertPod(pod("x", 1, { rv: "7" }));
    expect(t.hasSeen("x")).toBe(true);
    expect(t.hasSeen("x", "7")).toBe(false);
    t.upsertPod(pod("x", 1, { rv: "8" }));
    expect(t.hasSeen("x", "7")).toBe(true);
    t.deletePod(pod("x", 1, { rv: "8" }));
    expect(t.hasSeen("x")).toBe(true);
  });

  it("counts ResourceClaims of the budget's classes once each, through creates, relabels and deletes", () => {
    const t = new UsageTracker();
    const budget = { ...ml, deviceClasses: [{ name: "gpu.example.com", weight: "0.5" }] };
    const claim = (uid: string, devices: number, team: string): ResourceClaim => ({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaim",
      metadata: { name: uid, uid, namespace: "ns", labels: { team } },
      spec: {
        devices: {
          requests: [{ name: "r", exactly: { deviceClassName: "gpu.example.com", count: devices } }],
        },
      },
    });
    const claims = new Map<string, ResourceClaim>();
    const upsert = (c: ResourceClaim) => {
      claims.set(c.metadata?.uid ?? "", c);
      t.upsertClaim(c);
    };
    const check = () =>
      expect(t.usage("ns", "ml")?.allocatedMilli).toBe(
        budgetClaimUsage([...claims.values()], [], budget).allocatedMilli,
      );
    upsert(claim("a", 4, "ml"));
    t.upsertBudget(budget); // a budget created after its claims counts them
    check();
    expect(t.usage("ns", "ml")).toEqual({
      allocatedMilli: 2000,
      podCount: 0,
      nextChangeAt: Number.POSITIVE_INFINITY,
    });
    upsert(claim("b", 2, "web"));
    check();
    upsert(claim("b", 2, "ml"));
    check();
    expect(t.usage("ns", "ml")?.allocatedMilli).toBe(3000);
    expect(t.hasSeen("a")).toBe(true);
    claims.delete("a");
    t.deleteClaim(claim("a", 4, "ml"));
    check();
    expect(t.hasSeen("a")).toBe(true); // seen go: its reservation no longer adds to a decision
  });

  it("releases a claim's reservation once its claim is seen, and moves the claims' mark, not the pods'", () => {
    const t = new UsageTracker();
    const expiresAt = new Date(Date.now() + 30_000).toISOString();
    const claim = (uid: string, rv: string): ResourceClaim => ({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaim",
      metadata: { name: uid, uid, namespace: "ns", resourceVersion: rv },
      spec: { devices: { requests: [] } },
    });
    const reservations = [
      { pod: "resourceclaim/seen", podUID: "seen", expiresAt },
      { pod: "resourceclaim/flying", podUID: "flying", expiresAt },
      { pod: "a-pod", podUID: "seen", expiresAt }, // a pod's reservation is settled by the Pod cache only
    ];
    t.upsertClaim(claim("seen", "41"));
    const { kept, settled } = t.settle(reservations, { pods: "7", claims: "30" }, Date.now());
    expect(kept.map((r) => r.pod)).toEqual(["resourceclaim/flying", "a-pod"]);
    expect(settled).toEqual({ pods: "7", claims: "41" });
    // A replica decides only once its claim cache has passed the claims' mark too.
    expect(t.passedSettled("ns", { claims: "41" })).toBe(true);
    expect(t.passedSettled("ns", { claims: "42" })).toBe(false);
    expect(t.passedSettled("other", { claims: "41" })).toBe(false);
    // Seen deleted, it settles at its deletion's version.
    t.deleteClaim(claim("flying", "50"));
    expect(t.settle(kept, settled, Date.now()).settled).toEqual({ pods: "7", claims: "50" });
  });

  it("follows a pod's KEP-5004 claim as the pod changes: counted in full until the pod checks out, then not twice", () => {
    const t = new UsageTracker();
    const budget = {
      namespace: "ns",
      name: "ml",
      resources: [{ name: GPU }],
      deviceClasses: [{ name: "gpu.example.com" }],
    };
    t.upsertBudget(budget);
    const pods = new Map<string, Pod>();
    const claims = new Map<string, ResourceClaim>();
    const upsertPod = (p: Pod) => {
      pods.set(p.metadata?.uid ?? "", p);
      t.upsertPod(p);
    };
    const upsertClaim = (c: ResourceClaim) => {
      claims.set(c.metadata?.uid ?? "", c);
      t.upsertClaim(c);
    };
    const recount = () => {
      const p = [...pods.values()];
      return (
        budgetUsage(p, budget).allocatedMilli +
        budgetClaimUsage([...claims.values()], p, budget).allocatedMilli
      );
    };
    const expectUsage = (milli: number) => {
      expect(t.usage("ns", "ml")?.allocatedMilli).toBe(milli);
      expect(recount()).toBe(milli);
    };
    const generated = (name: string, created: string): ResourceClaim => ({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaim",
      metadata: {
        name,
        uid: name,
        namespace: "ns",
        creationTimestamp: created,
        annotations: { [EXTENDED_RESOURCE_CLAIM_ANNOTATION]: "true" },
        ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "p", uid: "p", controller: true }],
      },
      spec: {
        devices: { requests: [{ name: "r", exactly: { deviceClassName: "gpu.example.com", count: 2 } }] },
      },
    });

    // The claim arrives before its pod is in this cache: nothing vouches for it, so it counts.
    upsertClaim(generated("p-gpu", "2026-01-01T00:00:00Z"));
    expectUsage(2000);
    upsertPod(pod("p", 2, { phase: "Pending" })); // the pod's 2 GPUs are the claim's 2 devices
    expectUsage(2000);
    // A second claim naming the same pod, later: not the pod's, so it counts in full.
    upsertClaim(generated("p-gpu-forged", "2026-01-01T00:00:09Z"));
    expectUsage(4000);
    // The scheduler names the first in the pod's status; the forged one still counts.
    const named = pod("p", 2, { rv: "2" });
    named.status = {
      ...named.status,
      extendedResourceClaimStatus: { resourceClaimName: "p-gpu", requestMappings: [] },
    };
    upsertPod(named);
    expectUsage(4000);
    claims.delete("p-gpu-forged");
    t.deleteClaim(generated("p-gpu-forged", "2026-01-01T00:00:09Z"));
    expectUsage(2000);
    // The pod goes: its claim, until garbage-collected, counts on its own.
    pods.delete("p");
    t.deletePod(named);
    expectUsage(2000);
    claims.delete("p-gpu");
    t.deleteClaim(generated("p-gpu", "2026-01-01T00:00:00Z"));
    expectUsage(0);
  });
});
