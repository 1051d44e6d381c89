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

// Unit tests of the reconciler on the fake client: no cluster, but the CRD's
// schema, defaults and CEL rules are enforced by the fake as the API server would.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { type Client, type KubernetesObject, Namespace, Pod, type ReconcileContext } from "@kbts/runtime";
import { createFakeClient } from "@kbts/runtime/fake";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { GPUBudget } from "../../api/v1alpha1/gpubudget_types.js";
import { GPUBudgetKind } from "../../api/v1alpha1/zz_generated.kinds.js";
import { BUDGET_COHORT_INDEX } from "../cohort/cohort.js";
import { type DeviceRequest, type ResourceClaim, ResourceClaimKind } from "../gpu/claims.js";
import { UsageTracker } from "../gpu/usage.js";
import type { BudgetMetrics } from "../metrics/metrics.js";
import {
  BUDGET_NAMESPACE_INDEX,
  ENFORCEMENT_LABEL,
  FULL_LABEL,
  GPUBudgetNamespaceReconciler,
  GPUBudgetReconciler,
  podCountMayChange,
} from "./gpubudget_controller.js";

const CRDS = fileURLToPath(new URL("../../config/crd/bases", import.meta.url));
const NS = "team-a";
const GPU = "nvidia.com/gpu";

const silent = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  child: () => silent,
} as unknown as ReconcileContext["log"];
const ctx: ReconcileContext = {
  log: silent,
  signal: new AbortController().signal,
  reconcileID: "test",
  controllerName: "gpubudget",
};

function gpuPod(
  name: string,
  gpus: number,
  opts: { labels?: Record<string, string>; initGPUs?: number; namespace?: string } = {},
): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: opts.namespace ?? NS, labels: opts.labels },
    spec: {
      initContainers: opts.initGPUs
        ? [{ name: "warmup", image: "busybox", resources: { limits: { [GPU]: String(opts.initGPUs) } } }]
        : undefined,
      containers: [{ name: "main", image: "busybox", resources: { limits: { [GPU]: String(gpus) } } }],
    },
  };
}

function budget(
  name: string,
  maxGPUs: number,
  spec: Partial<GPUBudget["spec"]> = {},
  namespace = NS,
): GPUBudget {
  return {
    apiVersion: "capacity.lab.example.com/v1alpha1",
    kind: "GPUBudget",
    metadata: { name, namespace },
    spec: { maxGPUs, ...spec },
  };
}

class RecordedEvents {
  readonly events: { type: string; reason: string; message: string; name?: string }[] = [];
  event(object: KubernetesObject, type: "Normal" | "Warning", reason: string, message: string): void {
    this.events.push({ type, reason, message, name: object.metadata?.name });
  }
}

class RecordedMetrics implements BudgetMetrics {
  readonly series = new Map<string, { allocated: number; max: number; exceeded: boolean }>();
  set(namespace: string, name: string, values: { allocated: number; max: number; exceeded: boolean }): void {
    this.series.set(`${namespace}/${name}`, values);
  }
  readonly drifts: string[] = [];
  forget(namespace: string, name: string): void {
    this.series.delete(`${namespace}/${name}`);
  }
  drift(namespace: string, name: string): void {
    this.drifts.push(`${namespace}/${name}`);
  }
}

let client: Client;
let events: RecordedEvents;
let metrics: RecordedMetrics;
let reconciler: GPUBudgetReconciler;

beforeEach(() => {
  client = createFakeClient({
    crdDirectoryPaths: [CRDS],
    indexes: [
      {
        kind: GPUBudgetKind,
        field: BUDGET_NAMESPACE_INDEX,
        extract: (b: GPUBudget) => [b.metadata?.namespace ?? ""],
      },
    ],
  });
  events = new RecordedEvents();
  metrics = new RecordedMetrics();
  reconciler = new GPUBudgetReconciler({ client, recorder: events, metrics });
});

const reconcile = (name: string, namespace = NS) => reconciler.reconcile({ namespace, name }, ctx);
const get = (name: string, namespace = NS) => client.get(GPUBudgetKind, { namespace, name });

describe("the CRD", () => {
  it("defaults resourceName and enforcement", async () => {
    const created = await client.create(GPUBudgetKind, budget("b", 4));
    expect(created.spec.resourceName).toBe(GPU);
    expect(created.spec.enforcement).toBe("Report");
  });
  it("refuses a negative cap", async () => {
    await expect(client.create(GPUBudgetKind, budget("b", -1))).rejects.toThrow(/maxGPUs/);
  });
  it("refuses a native resource as resourceName (CEL rule)", async () => {
    await expect(
      client.create(GPUBudgetKind, budget("b", 4, { resourceName: "kubernetes.io/batteries" })),
    ).rejects.toThrow(/must be an extended resource/);
  });
  it("refuses a resourceName that is not an extended resource name", async () => {
    await expect(client.create(GPUBudgetKind, budget("b", 4, { resourceName: "cpu" }))).rejects.toThrow(
      /resourceName/,
    );
  });
  it("keeps resourceName immutable (CEL transition rule)", async () => {
    const created = await client.create(GPUBudgetKind, budget("b", 4));
    await expect(
      client.update(GPUBudgetKind, { ...created, spec: { ...created.spec, resourceName: "amd.com/gpu" } }),
    ).rejects.toThrow(/immutable/);
  });
});

describe("GPUBudgetReconciler", () => {
  it("reports an exceeded budget: status, condition, event and metrics", async () => {
    await client.create(GPUBudgetKind, budget("team-a-budget", 4));
    await client.create(Pod, gpuPod("g1", 6));
    await reconcile("team-a-budget");
    const got = await get("team-a-budget");
    expect(got.status).toMatchObject({
      allocatedGPUs: 6,
      podCount: 1,
      observedGeneration: got.metadata?.generation,
    });
    expect(got.status?.conditions).toEqual([
      expect.objectContaining({
        type: "Ready",
        status: "False",
        reason: "BudgetExceeded",
        message: "6/4 GPUs",
      }),
    ]);
    expect(got.status?.averageUtilization).toBeUndefined();
    expect(events.events).toEqual([
      expect.objectContaining({ type: "Warning", reason: "BudgetExceeded", name: "team-a-budget" }),
    ]);
    expect(metrics.series.get(`${NS}/team-a-budget`)).toEqual({ allocated: 6, max: 4, exceeded: true });
  });

  it("does not rewrite an unchanged status, nor repeat the event", async () => {
    await client.create(GPUBudgetKind, budget("b", 4));
    await client.create(Pod, gpuPod("g1", 6));
    await reconcile("b");
    const first = await get("b");
    await reconcile("b");
    const second = await get("b");
    expect(second.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
    expect(events.events).toHaveLength(1);
  });

  it("recovers when the pod succeeds: back to 0, Ready True, a Normal event", async () => {
    await client.create(GPUBudgetKind, budget("b", 4));
    const pod = await client.create(Pod, gpuPod("g1", 6));
    await reconcile("b");
    await client.status().update(Pod, { ...pod, status: { phase: "Succeeded" } });
    await reconcile("b");
    const got = await get("b");
    expect(got.status).toMatchObject({ allocatedGPUs: 0, podCount: 0 });
    expect(got.status?.conditions?.[0]).toMatchObject({
      status: "True",
      reason: "WithinBudget",
      message: "0/4 GPUs",
    });
    expect(events.events.map((e) => `${e.type}/${e.reason}`)).toEqual([
      "Warning/BudgetExceeded",
      "Normal/WithinBudget",
    ]);
  });

  it("counts only the pods its selector picks", async () => {
    await client.create(GPUBudgetKind, budget("ml", 8, { selector: { matchLabels: { team: "ml" } } }));
    await client.create(Pod, gpuPod("train", 2, { labels: { team: "ml" } }));
    await client.create(Pod, gpuPod("web", 3, { labels: { team: "web" } }));
    await reconcile("ml");
    expect((await get("ml")).status).toMatchObject({ allocatedGPUs: 2, podCount: 1 });
  });

  it("counts an init container larger than the containers by the scheduler's rule", async () => {
    await client.create(GPUBudgetKind, budget("b", 8));
    await client.create(Pod, gpuPod("p", 1, { initGPUs: 3 }));
    await reconcile("b");
    expect((await get("b")).status?.allocatedGPUs).toBe(3);
  });

  it("ignores pods of other namespaces", async () => {
    await client.create(GPUBudgetKind, budget("b", 8));
    await client.create(Pod, gpuPod("elsewhere", 5, { namespace: "team-b" }));
    await reconcile("b");
    expect((await get("b")).status?.allocatedGPUs).toBe(0);
  });

  it("forgets a deleted budget's metrics", async () => {
    await client.create(GPUBudgetKind, budget("b", 4));
    await reconcile("b");
    expect(metrics.series.has(`${NS}/b`)).toBe(true);
    await client.delete(GPUBudgetKind, { namespace: NS, name: "b" });
    await reconcile("b");
    expect(metrics.series.has(`${NS}/b`)).toBe(false);
  });

  /**
   * Budget "b" (4 GPUs) over one 2-GPU pod, reconciled once, then a tracker that got an event wrong:
   * it saw the pod deleted, which the cache (and so a recount) did not.
   */
  async function trackerGotAnEventWrong(recountIntervalMs: number): Promise<void> {
    const tracker = new UsageTracker();
    reconciler = new GPUBudgetReconciler({ client, recorder: events, metrics, tracker, recountIntervalMs });
    await client.create(GPUBudgetKind, budget("b", 4));
    tracker.upsertBudget({ namespace: NS, name: "b", resources: [{ name: GPU }] });
    const pod = await client.create(Pod, gpuPod("g1", 2));
    tracker.upsertPod(pod);
    await reconcile("b"); // the first reconcile of a budget recounts
    expect((await get("b")).status?.allocatedGPUs).toBe(2);
    expect(metrics.drifts).toEqual([]);
    tracker.deletePod(pod);
  }

  it("reports drift when the recount differs from the incremental usage", async () => {
    await trackerGotAnEventWrong(0);
    await reconcile("b");
    expect(metrics.drifts).toEqual([`${NS}/b`]);
    expect((await get("b")).status?.allocatedGPUs).toBe(2); // the recount is what status reports
  });

  it("reports the tracker's count between recounts, and recounts every recountIntervalMs", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      await trackerGotAnEventWrong(10_000);
      vi.setSystemTime(Date.now() + 9_000);
      await reconcile("b");
      expect((await get("b")).status?.allocatedGPUs).toBe(0); // what the webhook admits by, until the recount
      expect(metrics.drifts).toEqual([]);
      vi.setSystemTime(Date.now() + 1_000);
      await reconcile("b");
      expect(metrics.drifts).toEqual([`${NS}/b`]);
      expect((await get("b")).status?.allocatedGPUs).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("counts MIG slices by weight", async () => {
    await client.create(
      GPUBudgetKind,
      budget("mixed", 1, { resources: [{ name: GPU }, { name: "nvidia.com/mig-1g.10gb", weight: "0.125" }] }),
    );
    await client.create(Pod, {
      ...gpuPod("slices", 0),
      spec: {
        containers: [{ name: "c", image: "x", resources: { limits: { "nvidia.com/mig-1g.10gb": "10" } } }],
      },
    });
    await reconcile("mixed");
    const got = await get("mixed");
    // Whole GPUs round up; the admission policy compares the thousandths with the cap.
    expect(got.status).toMatchObject({ allocatedGPUs: 2, allocatedMilliGPUs: 1250, podCount: 1 });
    expect(got.status?.conditions?.[0]).toMatchObject({ status: "False", message: "1.25/1 GPUs" });
  });

  it("counts the ResourceClaims of its DeviceClasses once each, and reports claims of other classes", async () => {
    await client.create(
      GPUBudgetKind,
      budget("dra", 4, {
        deviceClasses: [{ name: "gpu.example.com" }, { name: "mig.example.com", weight: "0.5" }],
      }),
    );
    const claim = (name: string, requests: DeviceRequest[]): ResourceClaim => ({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaim",
      metadata: { name, namespace: NS },
      spec: { devices: { requests } },
    });
    await client.create(
      ResourceClaimKind,
      claim("two", [{ name: "r", exactly: { deviceClassName: "gpu.example.com", count: 2 } }]),
    );
    await client.create(
      ResourceClaimKind,
      claim("slices", [{ name: "r", exactly: { deviceClassName: "mig.example.com", count: 3 } }]),
    );
    await client.create(
      ResourceClaimKind,
      claim("nic", [{ name: "r", exactly: { deviceClassName: "nic.example.com" } }]),
    );
    // Two pods share the claim "two": it counts once, and the pods add nothing.
    for (const name of ["p1", "p2"]) {
      await client.create(Pod, {
        ...gpuPod(name, 0),
        spec: {
          containers: [{ name: "c", image: "x" }],
          resourceClaims: [{ name: "gpu", resourceClaimName: "two" }],
        } as Pod["spec"],
      });
    }
    await reconcile("dra");
    const got = await get("dra");
    expect(got.status).toMatchObject({ allocatedGPUs: 4, podCount: 0, claimCount: 2, uncountedClaims: 1 });
    expect(got.status?.conditions?.[0]).toMatchObject({ status: "True", message: "3.5/4 GPUs" });
  });

  it("drops expired reservations and keeps live ones", async () => {
    const created = await client.create(GPUBudgetKind, budget("b", 4, { enforcement: "Deny" }));
    const live = {
      pod: "new",
      podUID: "u1",
      milliGPUs: 1000,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    };
    const old = {
      pod: "old",
      podUID: "u2",
      milliGPUs: 1000,
      expiresAt: new Date(Date.now() - 1_000).toISOString(),
    };
    await client.status().update(GPUBudgetKind, { ...created, status: { reservations: [live, old] } });
    const result = await reconcile("b");
    expect((await get("b")).status?.reservations).toEqual([live]);
    expect(result.requeueAfter).toBeGreaterThan(55_000); // back when the live one expires
  });
});

describe("sharded (--shard-ring)", () => {
  // A replica sees only its own namespaces' budgets: a cohort spanning shards is not shared.
  it("decides a cohort's budget alone, on its own maxGPUs, and says why in its Cohort condition", async () => {
    const indexes = [
      {
        kind: GPUBudgetKind,
        field: BUDGET_NAMESPACE_INDEX,
        extract: (b: GPUBudget) => [b.metadata?.namespace ?? ""],
      },
      {
        kind: GPUBudgetKind,
        field: BUDGET_COHORT_INDEX,
        extract: (b: GPUBudget) => (b.spec?.cohort ? [b.spec.cohort] : []),
      },
    ];
    const borrowed = async (sharded: boolean) => {
      const c = createFakeClient({ crdDirectoryPaths: [CRDS], indexes });
      for (const ns of [NS, "team-b"]) await c.create(Namespace, { metadata: { name: ns } });
      await c.create(GPUBudgetKind, budget("queue", 2, { enforcement: "Queue", cohort: "pool" }));
      await c.create(GPUBudgetKind, budget("lender", 4, { cohort: "pool" }, "team-b"));
      await c.create(Pod, gpuPod("p", 3));
      await new GPUBudgetReconciler({
        client: c,
        recorder: new RecordedEvents(),
        metrics,
        sharded,
      }).reconcile({ namespace: NS, name: "queue" }, ctx);
      return (await c.get(GPUBudgetKind, { namespace: NS, name: "queue" })).status;
    };
    const unsharded = await borrowed(false);
    expect(unsharded).toMatchObject({ allocatedGPUs: 3, borrowedGPUs: 1 });
    expect(unsharded?.conditions?.find((c) => c.type === "Cohort")).toBeUndefined();
    const sharded = await borrowed(true);
    expect(sharded?.borrowedGPUs).toBeUndefined();
    expect(sharded?.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: "Ready",
          status: "False",
          reason: "BudgetExceeded",
          message: "3/2 GPUs",
        }),
        expect.objectContaining({
          type: "Cohort",
          status: "False",
          reason: "Sharded",
          message: expect.stringContaining("cohort pool is not shared"),
        }),
      ]),
    );
  });
});

describe("reservations its cache has seen", () => {
  it("are released, and the settled mark moves to the newest version they were seen at", async () => {
    const tracker = new UsageTracker();
    reconciler = new GPUBudgetReconciler({ client, recorder: events, metrics, tracker });
    const created = await client.create(GPUBudgetKind, budget("b", 4, { enforcement: "Deny" }));
    tracker.upsertBudget({ namespace: NS, name: "b", resources: [{ name: GPU }] });
    const later = new Date(Date.now() + 60_000).toISOString();
    const seen = { pod: "seen", podUID: "u-seen", milliGPUs: 1000, expiresAt: later };
    const inFlight = { pod: "in-flight", podUID: "u-flight", milliGPUs: 1000, expiresAt: later };
    await client.status().update(GPUBudgetKind, {
      ...created,
      status: { reservations: [seen, inFlight], settledPodResourceVersion: "40" },
    });
    const pod = gpuPod("seen", 1);
    tracker.upsertPod({ ...pod, metadata: { ...pod.metadata, uid: "u-seen", resourceVersion: "57" } });
    await reconcile("b");
    const status = (await get("b")).status;
    expect(status?.reservations).toEqual([inFlight]);
    expect(status?.settledPodResourceVersion).toBe("57");
  });
});

describe("fullAtGeneration (the budget-full policy's cue)", () => {
  const later = () => new Date(Date.now() + 60_000).toISOString();
  async function setup(status: GPUBudget["status"]) {
    const tracker = new UsageTracker();
    reconciler = new GPUBudgetReconciler({ client, recorder: events, metrics, tracker });
    const created = await client.create(GPUBudgetKind, budget("b", 2, { enforcement: "Deny" }));
    tracker.upsertBudget({ namespace: NS, name: "b", resources: [{ name: GPU }] });
    const running = await client.create(Pod, gpuPod("running", 1));
    tracker.upsertPod(running);
    await client.status().update(GPUBudgetKind, { ...created, status });
    return { tracker, running, generation: created.metadata?.generation };
  }

  it("is the generation while counted pods and unseen reservations fill the budget, and goes when a pod finishes", async () => {
    const inFlight = { pod: "in-flight", podUID: "u-flight", milliGPUs: 1000, expiresAt: later() };
    const { tracker, running, generation } = await setup({ reservations: [inFlight] });
    await reconcile("b");
    expect((await get("b")).status).toMatchObject({
      allocatedGPUs: 1,
      fullAtGeneration: generation,
      reservations: [inFlight],
    });
    const finished = await client.status().update(Pod, { ...running, status: { phase: "Succeeded" } });
    tracker.upsertPod(finished);
    await reconcile("b");
    const status = (await get("b")).status;
    expect(status?.allocatedGPUs).toBe(0);
    expect(status?.fullAtGeneration).toBeUndefined();
  });

  it("is not set while a grant holds room, which may be unused", async () => {
    const grant = { pod: "grant/other", podUID: "g-1", milliGPUs: 1000, expiresAt: later() };
    const { generation } = await setup({ reservations: [grant], fullAtGeneration: 1 });
    expect(generation).toBe(1);
    await reconcile("b");
    const status = (await get("b")).status;
    expect(status?.reservations).toEqual([grant]);
    expect(status?.fullAtGeneration).toBeUndefined();
  });
});

describe("enforcement: the namespace label the Pod webhook's namespaceSelector requires", () => {
  const namespaces = () => new GPUBudgetNamespaceReconciler(client);
  const label = async (name = NS) =>
    (await client.get(Namespace, { name })).metadata?.labels?.[ENFORCEMENT_LABEL];
  const enforcing = async (name: string) =>
    (await get(name)).status?.conditions?.find((c) => c.type === "Enforcing");
  beforeEach(async () => {
    await client.create(Namespace, {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: NS, labels: { team: "a" } },
    });
  });

  it("labels a namespace that holds a Deny budget, and only the label changes", async () => {
    await client.create(GPUBudgetKind, budget("report", 4));
    await namespaces().reconcile({ name: NS });
    expect(await label()).toBeUndefined();
    await client.create(GPUBudgetKind, budget("deny", 4, { enforcement: "Deny" }));
    await namespaces().reconcile({ name: NS });
    expect(await label()).toBe("Deny");
    expect((await client.get(Namespace, { name: NS })).metadata?.labels?.team).toBe("a");
  });

  it("removes the label when the last Deny budget goes to Report or is deleted", async () => {
    const a = await client.create(GPUBudgetKind, budget("a", 4, { enforcement: "Deny" }));
    await client.create(GPUBudgetKind, budget("b", 4, { enforcement: "Deny" }));
    await namespaces().reconcile({ name: NS });
    await client.update(GPUBudgetKind, { ...a, spec: { ...a.spec, enforcement: "Report" } });
    await namespaces().reconcile({ name: NS });
    expect(await label()).toBe("Deny"); // b still denies
    await client.delete(GPUBudgetKind, { namespace: NS, name: "b" });
    await namespaces().reconcile({ name: NS });
    expect(await label()).toBeUndefined();
  });

  it("reports Enforcing on a Deny budget only once its namespace is labelled, and none on a Report budget", async () => {
    await client.create(GPUBudgetKind, budget("deny", 4, { enforcement: "Deny" }));
    await client.create(GPUBudgetKind, budget("report", 4));
    await reconcile("deny");
    await reconcile("report");
    expect(await enforcing("deny")).toMatchObject({ status: "False", reason: "NamespaceNotLabelled" });
    expect(await enforcing("report")).toBeUndefined();
    await namespaces().reconcile({ name: NS });
    await reconcile("deny");
    expect(await enforcing("deny")).toMatchObject({ status: "True", reason: "NamespaceLabelled" });
    const deny = await get("deny");
    await client.update(GPUBudgetKind, { ...deny, spec: { ...deny.spec, enforcement: "Report" } });
    await reconcile("deny");
    expect(await enforcing("deny")).toBeUndefined();
  });
});

describe("the full label: where kube-apiserver evaluates the budget-full policy", () => {
  const HOLD = 30_000;
  let clock = 0;
  let labeller: GPUBudgetNamespaceReconciler;
  const labels = async (name = NS) => (await client.get(Namespace, { name })).metadata?.labels ?? {};
  const withStatus = async (name: string, status: GPUBudget["status"], namespace = NS) => {
    const current = await client.get(GPUBudgetKind, { namespace, name });
    await client.status().update(GPUBudgetKind, { ...current, status });
  };
  beforeEach(async () => {
    clock = 1_000_000;
    labeller = new GPUBudgetNamespaceReconciler(client, { holdMs: HOLD, now: () => clock });
    await client.create(Namespace, {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: NS, labels: { team: "a" } },
    });
  });

  it("labels a namespace while a Deny budget there is full by its status, counted or marked full", async () => {
    await client.create(GPUBudgetKind, budget("deny", 2, { enforcement: "Deny" }));
    await withStatus("deny", { allocatedMilliGPUs: 1500 });
    await labeller.reconcile({ name: NS });
    expect(await labels()).toEqual({ team: "a", [ENFORCEMENT_LABEL]: "Deny" });
    await withStatus("deny", { allocatedMilliGPUs: 2000 });
    await labeller.reconcile({ name: NS });
    expect(await labels()).toEqual({ team: "a", [ENFORCEMENT_LABEL]: "Deny", [FULL_LABEL]: "true" });

    await client.create(Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: "marked" } });
    const marked = await client.create(GPUBudgetKind, budget("deny", 2, { enforcement: "Deny" }, "marked"));
    await withStatus(
      "deny",
      { allocatedMilliGPUs: 0, fullAtGeneration: marked.metadata?.generation },
      "marked",
    );
    await labeller.reconcile({ name: "marked" });
    expect((await labels("marked"))[FULL_LABEL]).toBe("true");
    // A mark for another generation (an earlier spec) says nothing of this one.
    await client.create(Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: "stale" } });
    await client.create(GPUBudgetKind, budget("deny", 2, { enforcement: "Deny" }, "stale"));
    await withStatus("deny", { allocatedMilliGPUs: 0, fullAtGeneration: 7 }, "stale");
    await labeller.reconcile({ name: "stale" });
    expect((await labels("stale"))[FULL_LABEL]).toBeUndefined();
  });

  it("never labels a namespace for a full Report budget, which refuses nothing", async () => {
    await client.create(GPUBudgetKind, budget("report", 2));
    await withStatus("report", { allocatedMilliGPUs: 4000 });
    await labeller.reconcile({ name: NS });
    expect(await labels()).toEqual({ team: "a" });
  });

  it("keeps the label for a hold after the budget has room again, then removes it", async () => {
    await client.create(GPUBudgetKind, budget("deny", 2, { enforcement: "Deny" }));
    await withStatus("deny", { allocatedMilliGPUs: 2000 });
    await labeller.reconcile({ name: NS });
    await withStatus("deny", { allocatedMilliGPUs: 1000 });
    expect(await labeller.reconcile({ name: NS })).toEqual({ requeueAfter: HOLD });
    clock += HOLD / 2;
    // Full again within the hold, then room: the hold starts over.
    await withStatus("deny", { allocatedMilliGPUs: 2000 });
    expect(await labeller.reconcile({ name: NS })).toEqual({});
    await withStatus("deny", { allocatedMilliGPUs: 1000 });
    expect(await labeller.reconcile({ name: NS })).toEqual({ requeueAfter: HOLD });
    clock += HOLD - 1;
    expect(await labeller.reconcile({ name: NS })).toEqual({ requeueAfter: 1 });
    expect((await labels())[FULL_LABEL]).toBe("true");
    clock += 1;
    expect(await labeller.reconcile({ name: NS })).toEqual({});
    expect(await labels()).toEqual({ team: "a", [ENFORCEMENT_LABEL]: "Deny" });
  });

  it("removes the label at once with the namespace's last Deny budget", async () => {
    const deny = await client.create(GPUBudgetKind, budget("deny", 2, { enforcement: "Deny" }));
    await withStatus("deny", { allocatedMilliGPUs: 2000 });
    await labeller.reconcile({ name: NS });
    await client.update(GPUBudgetKind, {
      ...(await get("deny")),
      spec: { ...deny.spec, enforcement: "Report" },
    });
    expect(await labeller.reconcile({ name: NS })).toEqual({});
    expect(await labels()).toEqual({ team: "a" });
  });
});

describe("utilization from Prometheus", () => {
  let server: Server;
  let url = "";
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          status: "success",
          data: {
            resultType: "vector",
            result: [
              { metric: { UUID: "GPU-1" }, value: [0, "70"] },
              { metric: { UUID: "GPU-2" }, value: [0, "0"] },
            ],
          },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("reports average utilization and idle GPUs, and requeues on the interval", async () => {
    const r = new GPUBudgetReconciler({
      client,
      recorder: events,
      metrics,
      utilization: { url, intervalMs: 30_000 },
    });
    await client.create(GPUBudgetKind, budget("b", 4));
    await client.create(Pod, gpuPod("g1", 2));
    const result = await r.reconcile({ namespace: NS, name: "b" }, ctx);
    expect(result).toEqual({ requeueAfter: 30_000 });
    expect((await get("b")).status).toMatchObject({ averageUtilization: 35, idleGPUs: 1 });
  });

  it("keeps counting when Prometheus is unreachable", async () => {
    const r = new GPUBudgetReconciler({
      client,
      recorder: events,
      metrics,
      utilization: { url: "http://127.0.0.1:1", intervalMs: 1000, timeoutMs: 500 },
    });
    await client.create(GPUBudgetKind, budget("b", 4));
    await client.create(Pod, gpuPod("g1", 2));
    await r.reconcile({ namespace: NS, name: "b" }, ctx);
    const got = await get("b");
    expect(got.status?.allocatedGPUs).toBe(2);
    expect(got.status?.averageUtilization).toBeUndefined();
  });
});

describe("podCountMayChange (the Pod watch's predicate)", () => {
  const update = (a: Pod, b: Pod) => podCountMayChange.update?.({ objectOld: a, objectNew: b });
  it("passes the changes that can move a budget", () => {
    const p = gpuPod("p", 2);
    expect(update(p, { ...p, status: { phase: "Succeeded" } })).toBe(true);
    expect(update(p, { ...p, metadata: { ...p.metadata, labels: { team: "ml" } } })).toBe(true);
    expect(update(p, { ...p, metadata: { ...p.metadata, deletionTimestamp: "2026-01-01T00:00:00Z" } })).toBe(
      true,
    );
  });
  it("drops updates that cannot (conditions, annotations)", () => {
    const p = gpuPod("p", 2);
    expect(update(p, { ...p, metadata: { ...p.metadata, annotations: { a: "b" } } })).toBe(false);
    expect(
      update(p, { ...p, status: { conditions: [{ type: "PodScheduled", status: "False" }] } } as Pod),
    ).toBe(false);
  });
});
