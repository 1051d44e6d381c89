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

// Unit tests of the Pod validator and its reservations on the fake client (no cluster; the fake
// enforces the CRD's schema and resourceVersion preconditions as the API server does). The webhook
// server with the API server calling it is covered by internal/controller/gpubudget_controller.test.ts.
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { Client, Pod } from "@kbts/runtime";
import { createFakeClient } from "@kbts/runtime/fake";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { GPUBudget } from "../../../api/v1alpha1/gpubudget_types.js";
import { GPUBudgetKind } from "../../../api/v1alpha1/zz_generated.kinds.js";
import { BUDGET_NAMESPACE_INDEX } from "../../controller/gpubudget_controller.js";
import type { DeviceRequest, ResourceClaim } from "../../gpu/claims.js";
import { budgetResources, QUEUE_GATE } from "../../gpu/podgpus.js";
import { UsageTracker } from "../../gpu/usage.js";
import { PodCustomValidator } from "./pod_webhook.js";
import { BudgetReservations, type GrantOptions, type ReservationOptions } from "./reservations.js";
import { ResourceClaimCustomValidator } from "./resourceclaim_webhook.js";

const CRDS = fileURLToPath(new URL("../../../config/crd/bases", import.meta.url));
const NS = "team-a";
const GPU = "nvidia.com/gpu";
const MIG = "nvidia.com/mig-1g.10gb";

function gpuPod(
  name: string,
  gpus: number,
  opts: { labels?: Record<string, string>; resource?: string; resourceVersion?: string } = {},
): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace: NS,
      uid: randomUUID(),
      resourceVersion: opts.resourceVersion ?? "1",
      labels: opts.labels,
    },
    spec: {
      containers: [
        { name: "main", image: "busybox", resources: { limits: { [opts.resource ?? GPU]: String(gpus) } } },
      ],
    },
  };
}

function budget(name: string, maxGPUs: number, spec: Partial<GPUBudget["spec"]> = {}): GPUBudget {
  return {
    apiVersion: "capacity.lab.example.com/v1alpha1",
    kind: "GPUBudget",
    metadata: { name, namespace: NS },
    spec: { maxGPUs, ...spec },
  };
}

let client: Client;
/** One replica: its own tracker (cache view) and reservations, sharing the API server (the fake). */
interface Replica {
  tracker: UsageTracker;
  reservations: BudgetReservations;
  validator: PodCustomValidator;
}
function replica(
  writer: Client = client,
  options: Pick<ReservationOptions, "grants" | "stopping" | "onFull"> = {},
): Replica {
  const tracker = new UsageTracker();
  const reservations = new BudgetReservations({
    client: writer,
    apiReader: writer,
    tracker,
    ttlMs: 30_000,
    ...options,
  });
  return {
    tracker,
    reservations,
    validator: new PodCustomValidator({ client: writer, tracker, reservations }),
  };
}

/** The shared client, counting the status writes made through it; each write first awaits `gate`. */
function countingWrites(gate: () => Promise<void> = async () => {}): {
  client: Client;
  writes: () => number;
} {
  let writes = 0;
  const counting = new Proxy(client, {
    get(target, prop, receiver) {
      if (prop !== "status") return Reflect.get(target, prop, receiver);
      return () => {
        const status = target.status();
        return new Proxy(status, {
          get(s, p, r) {
            if (p !== "update") return Reflect.get(s, p, r);
            return async (...args: Parameters<typeof status.update>) => {
              writes++;
              await gate();
              return status.update(...args);
            };
          },
        });
      };
    },
  });
  return { client: counting, writes: () => writes };
}

async function addBudget(r: Array<Pick<Replica, "tracker">>, b: GPUBudget): Promise<GPUBudget> {
  const created = await client.create(GPUBudgetKind, b);
  for (const { tracker } of r) {
    tracker.upsertBudget({
      namespace: NS,
      name: b.metadata?.name ?? "",
      selector: created.spec.selector,
      resources: budgetResources(created.spec),
      deviceClasses: created.spec.deviceClasses,
    });
  }
  return created;
}

async function reservationsOf(name: string): Promise<Array<{ pod: string; milliGPUs: number }>> {
  return ((await client.get(GPUBudgetKind, { namespace: NS, name })).status?.reservations ?? []).map(
    ({ pod, milliGPUs }) => ({ pod, milliGPUs }),
  );
}

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
});

describe("PodCustomValidator", () => {
  it("denies a pod that would push a Deny budget past its cap, naming the budget, cap, use and ask", async () => {
    const r = replica();
    await addBudget([r], budget("cap", 4, { enforcement: "Deny" }));
    r.tracker.upsertPod(gpuPod("running", 3));
    await expect(r.validator.validateCreate(gpuPod("more", 2))).rejects.toThrow(
      "pod denied: GPUBudget team-a/cap allows 4 nvidia.com/gpu; 3 in use (3 allocated, 0 reserved), this pod asks for 2 (5/4)",
    );
    await expect(r.validator.validateCreate(gpuPod("fits", 1))).resolves.toEqual([]);
    const reservations = (await client.get(GPUBudgetKind, { namespace: NS, name: "cap" })).status
      ?.reservations;
    expect(reservations).toEqual([expect.objectContaining({ pod: "fits", milliGPUs: 1000 })]);
  });

  it("admits exactly the cap from a concurrent burst through two replicas", async () => {
    const a = replica();
    const b = replica();
    await addBudget([a, b], budget("cap", 10, { enforcement: "Deny" }));
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).validator.validateCreate(gpuPod(`p${i}`, 1))),
    );
    expect(results.filter((x) => x.status === "fulfilled")).toHaveLength(10);
    const denied = results.find((x) => x.status === "rejected") as PromiseRejectedResult;
    expect(String(denied.reason)).toContain(
      "10 in use (0 allocated, 10 reserved), this pod asks for 1 (11/10)",
    );
  });

  it("commits a burst on one replica in a few writes, not one per pod", async () => {
    const { client: writer, writes } = countingWrites();
    const r = replica(writer);
    await addBudget([r], budget("cap", 30, { enforcement: "Deny" }));
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => r.validator.validateCreate(gpuPod(`p${i}`, 1))),
    );
    expect(results.filter((x) => x.status === "fulfilled")).toHaveLength(30);
    expect(writes()).toBeLessThanOrEqual(3);
    expect(
      (await client.get(GPUBudgetKind, { namespace: NS, name: "cap" })).status?.reservations,
    ).toHaveLength(30);
  });

  it("says in the write that fills the budget that it is full (the budget-full policy's cue), for that spec only", async () => {
    const filledNamespaces: string[] = [];
    const r = replica(client, { onFull: (namespace) => filledNamespaces.push(namespace) });
    await addBudget([r], budget("cap", 3, { enforcement: "Deny" }));
    const fullAt = async () =>
      (await client.get(GPUBudgetKind, { namespace: NS, name: "cap" })).status?.fullAtGeneration;
    await r.validator.validateCreate(gpuPod("p0", 1));
    await r.validator.validateCreate(gpuPod("p1", 1));
    expect(await fullAt()).toBeUndefined();
    expect(filledNamespaces).toEqual([]);
    // Nothing is counted yet: three reservations fill it.
    await r.validator.validateCreate(gpuPod("p2", 1));
    const filled = await client.get(GPUBudgetKind, { namespace: NS, name: "cap" });
    expect(filled.status?.fullAtGeneration).toBe(filled.metadata?.generation);
    // The writer that filled it says so at once, for the namespace's full label; a refusal writes nothing.
    expect(filledNamespaces).toEqual([NS]);
    await expect(r.validator.validateCreate(gpuPod("over", 1))).rejects.toThrow("pod denied");
    expect(filledNamespaces).toEqual([NS]);
    // A raised cap is a new generation, which the mark does not cover; the next write leaves room and removes it.
    const raised = await client.update(GPUBudgetKind, { ...filled, spec: { ...filled.spec, maxGPUs: 5 } });
    expect(raised.metadata?.generation).not.toBe(filled.status?.fullAtGeneration);
    await r.validator.validateCreate(gpuPod("p3", 1));
    expect(await fullAt()).toBeUndefined();
    await r.validator.validateCreate(gpuPod("p4", 1));
    expect(await fullAt()).toBe(raised.metadata?.generation);
    expect(filledNamespaces).toEqual([NS, NS]);
  });

  it("refuses at once a pod that does not fit even without the write in flight", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { client: writer, writes } = countingWrites(() => held);
    const r = replica(writer);
    await addBudget([r], budget("cap", 2, { enforcement: "Deny" }));
    const first = r.validator.validateCreate(gpuPod("first", 1));
    await vi.waitFor(() => expect(writes()).toBe(1)); // its write is in flight, held
    await expect(r.validator.validateCreate(gpuPod("too-big", 3))).rejects.toThrow(
      "0 in use (0 allocated, 0 reserved), this pod asks for 3 (3/2)",
    );
    release();
    await expect(first).resolves.toEqual([]);
  });

  it("keeps only the reservations of pods its cache has not seen, however many it admitted", async () => {
    const r = replica();
    await addBudget([r], budget("cap", 100, { enforcement: "Deny" }));
    for (let i = 0; i < 50; i++) {
      const pod = gpuPod(`p${i}`, 1, { resourceVersion: String(100 + i) });
      await r.validator.validateCreate(pod);
      r.tracker.upsertPod(pod); // the cache sees each pod before the next admission
    }
    const status = (await client.get(GPUBudgetKind, { namespace: NS, name: "cap" })).status;
    expect(status?.reservations).toEqual([expect.objectContaining({ pod: "p49" })]);
    expect(status?.settledPodResourceVersion).toBe("148");
    await expect(r.validator.validateCreate(gpuPod("more", 51))).rejects.toThrow(
      "50 in use (50 allocated, 0 reserved)",
    );
  });

  it("does not decide on a cache behind the settled mark, so a released pod is never counted nowhere", async () => {
    const a = replica();
    const b = replica();
    await addBudget([a, b], budget("cap", 3, { enforcement: "Deny" }));
    const first = gpuPod("first", 2, { resourceVersion: "20" });
    await a.validator.validateCreate(first);
    a.tracker.upsertPod(first);
    await a.validator.validateCreate(gpuPod("second", 1, { resourceVersion: "21" })); // releases first at 20
    expect(
      (await client.get(GPUBudgetKind, { namespace: NS, name: "cap" })).status?.settledPodResourceVersion,
    ).toBe("20");
    // b's cache has not seen "first": counting reservations alone it would admit a third pod (2 + 1 <= 3).
    await expect(b.validator.validateCreate(gpuPod("third", 1))).rejects.toThrow(
      "is busy with other admissions",
    );
    b.tracker.upsertPod(first);
    await expect(b.validator.validateCreate(gpuPod("third", 1))).rejects.toThrow(
      "3 in use (2 allocated, 1 reserved)",
    );
  });

  it("counts a reserved pod once when the cache sees it, and frees it when it goes", async () => {
    const r = replica();
    await addBudget([r], budget("cap", 2, { enforcement: "Deny" }));
    const first = gpuPod("first", 2);
    await r.validator.validateCreate(first);
    await expect(r.validator.validateCreate(gpuPod("second", 1))).rejects.toThrow(
      "2 in use (0 allocated, 2 reserved)",
    );
    r.tracker.upsertPod(first);
    await expect(r.validator.validateCreate(gpuPod("third", 1))).rejects.toThrow(
      "2 in use (2 allocated, 0 reserved)",
    );
    r.tracker.deletePod(first);
    await expect(r.validator.validateCreate(gpuPod("fourth", 1))).resolves.toEqual([]);
  });

  it("refuses rather than fail open when it cannot decide in time", async () => {
    const tracker = new UsageTracker();
    const reservations = new BudgetReservations({
      client,
      apiReader: client,
      tracker,
      ttlMs: 30_000,
      deadlineMs: -1,
    });
    const late = new PodCustomValidator({ client, tracker, reservations });
    await addBudget([{ tracker }], budget("cap", 4, { enforcement: "Deny" }));
    await expect(late.validateCreate(gpuPod("p", 1))).rejects.toThrow(
      "pod denied: GPUBudget team-a/cap is busy with other admissions; could not reserve 1 GPUs in time, try again",
    );
  });

  it("refuses rather than fail open when a Deny budget cannot be checked", async () => {
    const r = replica();
    await addBudget([r], budget("cap", 4, { enforcement: "Deny" }));
    const broken = new PodCustomValidator({
      client,
      tracker: r.tracker,
      reservations: {
        reserve: async () => Promise.reject(new Error("connection refused")),
      } as unknown as BudgetReservations,
    });
    await expect(broken.validateCreate(gpuPod("p", 1))).rejects.toThrow(
      "pod denied: GPUBudget team-a/cap could not be checked (connection refused); try again",
    );
  });

  it("reserves nothing for a dry run", async () => {
    const r = replica();
    await addBudget([r], budget("cap", 1, { enforcement: "Deny" }));
    const pod = gpuPod("dry", 1);
    await r.validator.validateCreate(pod, { dryRun: true } as never);
    expect(
      (await client.get(GPUBudgetKind, { namespace: NS, name: "cap" })).status?.reservations,
    ).toBeUndefined();
  });

  it("only warns for a Report budget", async () => {
    const r = replica();
    await addBudget([r], budget("cap", 4));
    const warnings = await r.validator.validateCreate(gpuPod("big", 6));
    expect(warnings).toEqual([expect.stringContaining("enforcement is Report")]);
  });

  it("admits a mirror pod past a Deny budget with a warning: refusing it would not stop its static pod", async () => {
    const r = replica();
    await addBudget([r], budget("cap", 1, { enforcement: "Deny" }));
    r.tracker.upsertPod(gpuPod("running", 1));
    const mirror = gpuPod("static-trainer", 2);
    mirror.metadata = { ...mirror.metadata, annotations: { "kubernetes.io/config.mirror": "abc123" } };
    const warnings = await r.validator.validateCreate(mirror);
    expect(warnings).toEqual([
      expect.stringContaining("(3/1); it mirrors a static pod, which runs whatever admission says"),
    ]);
    await expect(r.validator.validateCreate(gpuPod("regular", 2))).rejects.toThrow("(3/1)");
  });

  it("refuses a pod created bound to a node past a Queue budget (it cannot wait in line), and passes gated pods and releases", async () => {
    const r = replica();
    await addBudget([r], budget("q", 2, { enforcement: "Queue" }));
    r.tracker.upsertPod(gpuPod("running", 2));
    const bound = gpuPod("bound", 1);
    if (bound.spec) bound.spec.nodeName = "gpu-0";
    await expect(r.validator.validateCreate(bound)).rejects.toThrow(
      "pod denied: GPUBudget team-a/q allows 2 nvidia.com/gpu; 2 in use",
    );
    // A gated pod holds nothing, so it is not checked; its release (an update) is the leader's decision.
    const gated = gpuPod("waiting", 1);
    if (gated.spec) gated.spec.schedulingGates = [{ name: QUEUE_GATE }];
    await expect(r.validator.validateCreate(gated)).resolves.toEqual([]);
    const released = gpuPod("waiting", 1, { resourceVersion: "2" });
    await expect(r.validator.validateUpdate(gated, released)).resolves.toEqual([
      expect.stringContaining("(3/2)"),
    ]);
  });

  it("ignores pods the budget's selector does not pick", async () => {
    const r = replica();
    await addBudget(
      [r],
      budget("cap", 0, { enforcement: "Deny", selector: { matchLabels: { team: "ml" } } }),
    );
    await expect(r.validator.validateCreate(gpuPod("web", 2, { labels: { team: "web" } }))).resolves.toEqual(
      [],
    );
  });

  it("refuses a relabel that moves a running pod into a Deny budget it would overflow", async () => {
    const r = replica();
    await addBudget([r], budget("ml", 2, { enforcement: "Deny", selector: { matchLabels: { team: "ml" } } }));
    const train = gpuPod("train", 2, { labels: { team: "ml" } });
    r.tracker.upsertPod(train);
    const web = gpuPod("web", 1, { labels: { team: "web" } });
    r.tracker.upsertPod(web);
    const moved = { ...web, metadata: { ...web.metadata, labels: { team: "ml" } } };
    await expect(r.validator.validateUpdate(web, moved)).rejects.toThrow(
      "GPUBudget team-a/ml allows 2 nvidia.com/gpu; 2 in use (2 allocated, 0 reserved), this pod asks for 1 (3/2)",
    );
    // An update that adds nothing (a label the selector ignores) is not checked.
    const relabelled = { ...train, metadata: { ...train.metadata, labels: { team: "ml", tier: "gold" } } };
    await expect(r.validator.validateUpdate(train, relabelled)).resolves.toEqual([]);
  });

  it("refuses an in-place resize past the cap", async () => {
    const r = replica();
    await addBudget([r], budget("cap", 2, { enforcement: "Deny" }));
    const pod = gpuPod("p", 1);
    r.tracker.upsertPod(pod);
    await expect(r.validator.validateUpdate(pod, gpuPod("p", 3))).rejects.toThrow(
      "this pod asks for 2 (3/2)",
    );
  });

  it("counts MIG slices by their weight and refuses when over", async () => {
    const r = replica();
    await addBudget(
      [r],
      budget("mixed", 1, { enforcement: "Deny", resources: [{ name: GPU }, { name: MIG, weight: "0.125" }] }),
    );
    r.tracker.upsertPod(gpuPod("slices", 7, { resource: MIG }));
    await expect(r.validator.validateCreate(gpuPod("one-more", 1, { resource: MIG }))).resolves.toEqual([]);
    await expect(r.validator.validateCreate(gpuPod("again", 1, { resource: MIG }))).rejects.toThrow(
      "allows 1 GPUs (nvidia.com/gpu, nvidia.com/mig-1g.10gb×0.125); 1 in use (0.875 allocated, 0.125 reserved), this pod asks for 0.125 (1.125/1)",
    );
  });
});

function gpuClaim(name: string, devices: number, deviceClassName = "gpu.example.com"): ResourceClaim {
  const requests: DeviceRequest[] = [{ name: "gpu", exactly: { deviceClassName, count: devices } }];
  return {
    apiVersion: "resource.k8s.io/v1",
    kind: "ResourceClaim",
    metadata: { name, namespace: NS, uid: randomUUID() },
    spec: { devices: { requests } },
  };
}

describe("ResourceClaimCustomValidator", () => {
  function claimReplica() {
    const tracker = new UsageTracker();
    const reservations = new BudgetReservations({ client, apiReader: client, tracker, ttlMs: 30_000 });
    return {
      tracker,
      validator: new PodCustomValidator({ client, tracker, reservations }),
      claims: new ResourceClaimCustomValidator({ client, tracker, reservations }),
    };
  }

  it("denies a claim that would push a Deny budget past its cap, counting pods and claims together", async () => {
    const r = claimReplica();
    await addBudget(
      [r],
      budget("cap", 4, { enforcement: "Deny", deviceClasses: [{ name: "gpu.example.com" }] }),
    );
    r.tracker.upsertPod(gpuPod("running", 1));
    r.tracker.upsertClaim(gpuClaim("held", 2));
    await expect(r.claims.validateCreate(gpuClaim("more", 2))).rejects.toThrow(
      "resourceclaim denied: GPUBudget team-a/cap allows 4 GPUs (nvidia.com/gpu, DeviceClass gpu.example.com); 3 in use (3 allocated, 0 reserved), this claim asks for 2 (5/4)",
    );
    const fits = gpuClaim("fits", 1);
    await expect(r.claims.validateCreate(fits)).resolves.toEqual([]);
    const status = (await client.get(GPUBudgetKind, { namespace: NS, name: "cap" })).status;
    expect(status?.reservations).toEqual([
      expect.objectContaining({ pod: "resourceclaim/fits", podUID: fits.metadata?.uid, milliGPUs: 1000 }),
    ]);
    // The reservation holds the claim's device until the cache sees it: a pod cannot take it meanwhile.
    await expect(r.validator.validateCreate(gpuPod("pod", 1))).rejects.toThrow(
      "4 in use (3 allocated, 1 reserved), this pod asks for 1 (5/4)",
    );
    // Seen by the cache, the claim is counted there and its reservation no longer adds to it.
    r.tracker.upsertClaim(fits);
    await expect(r.validator.validateCreate(gpuPod("pod2", 1))).rejects.toThrow(
      "4 in use (4 allocated, 0 reserved)",
    );
  });

  it("keeps only the reservations of claims its cache has not seen, and a replica behind the claims' mark waits", async () => {
    const r = claimReplica();
    const behind = claimReplica();
    await addBudget(
      [r, behind],
      budget("cap", 100, { enforcement: "Deny", deviceClasses: [{ name: "gpu.example.com" }] }),
    );
    for (let i = 0; i < 20; i++) {
      const c = gpuClaim(`c${i}`, 1);
      c.metadata = { ...c.metadata, resourceVersion: String(300 + i) };
      await r.claims.validateCreate(c);
      r.tracker.upsertClaim(c); // the claim cache sees each before the next admission
    }
    const status = (await client.get(GPUBudgetKind, { namespace: NS, name: "cap" })).status;
    expect(status?.reservations).toEqual([expect.objectContaining({ pod: "resourceclaim/c19" })]);
    expect(status?.settledClaimResourceVersion).toBe("318");
    // Another replica whose claim cache has not seen them would count them nowhere: it does not decide.
    await expect(behind.claims.validateCreate(gpuClaim("late", 90))).rejects.toThrow(
      "is busy with other admissions",
    );
  });

  it("admits claims of classes the budget does not count, and only warns under Report", async () => {
    const r = claimReplica();
    await addBudget(
      [r],
      budget("cap", 1, { enforcement: "Deny", deviceClasses: [{ name: "gpu.example.com" }] }),
    );
    await addBudget([r], budget("report", 1, { deviceClasses: [{ name: "nic.example.com" }] }));
    await expect(r.claims.validateCreate(gpuClaim("nics", 2, "nic.example.com"))).resolves.toEqual([
      "GPUBudget team-a/report allows 1 GPUs (nvidia.com/gpu, DeviceClass nic.example.com); 0 in use, this claim asks for 2 (2/1); enforcement is Report, so the claim is admitted",
    ]);
    await expect(r.claims.validateUpdate()).resolves.toEqual([]);
  });
});

describe("grants: room a replica takes in advance", () => {
  const grants = (name: string, useMs = 60_000): GrantOptions => ({
    replica: name,
    minRoomMilli: 4_000,
    useMs,
  });

  it("admits from its grant without a write, converts the grant at its next write, and stops exactly at the cap", async () => {
    const counting = countingWrites();
    const r = replica(counting.client, { grants: grants("a") });
    await addBudget([r], budget("cap", 40, { enforcement: "Deny" }));
    await r.validator.validateCreate(gpuPod("p0", 1));
    // One write: p0's reservation and a grant of half the 39 GPUs left.
    expect(counting.writes()).toBe(1);
    expect(await reservationsOf("cap")).toEqual([
      { pod: "p0", milliGPUs: 1000 },
      { pod: "grant/a", milliGPUs: 19000 },
    ]);
    const statusOf = async () => (await client.get(GPUBudgetKind, { namespace: NS, name: "cap" })).status;
    expect((await statusOf())?.fullAtGeneration).toBeUndefined();
    for (let i = 1; i <= 19; i++) await r.validator.validateCreate(gpuPod(`p${i}`, 1));
    expect(counting.writes()).toBe(1);
    // The grant is used up: the next write lists its pods (none seen yet) and takes half of the 19 left.
    await r.validator.validateCreate(gpuPod("p20", 1));
    expect(counting.writes()).toBe(2);
    const listed = await reservationsOf("cap");
    expect(
      listed
        .filter((x) => !x.pod.startsWith("grant/"))
        .map((x) => x.pod)
        .sort(),
    ).toEqual(Array.from({ length: 21 }, (_, i) => `p${i}`).sort());
    expect(listed.filter((x) => x.pod.startsWith("grant/"))).toEqual([{ pod: "grant/a", milliGPUs: 9000 }]);
    let admitted = 21;
    const refusals: string[] = [];
    for (let i = 21; i < 60; i++) {
      try {
        await r.validator.validateCreate(gpuPod(`p${i}`, 1));
        admitted++;
      } catch (err) {
        refusals.push(String(err));
      }
    }
    expect(admitted).toBe(40);
    expect(refusals[0]).toContain("40 in use (0 allocated, 40 reserved), this pod asks for 1 (41/40)");
    // Grants of 19, 9, 4 and 2, then a write for each of the last two pods (1 GPU left is below 4).
    expect(counting.writes()).toBe(6);
    // The last of them filled it, with no grant held: from there kube-apiserver refuses (the budget-full policy).
    expect((await statusOf())?.fullAtGeneration).toBe(1);
  });

  it("is counted in full by another replica, which waits for its conversion rather than refuse on it", async () => {
    const a = replica(client, { grants: grants("a", 300) });
    const b = replica(client, { grants: grants("b") });
    await addBudget([a, b], budget("cap", 10, { enforcement: "Deny" }));
    const pods = [0, 1, 2].map((i) => gpuPod(`p${i}`, 1, { resourceVersion: String(10 + i) }));
    for (const pod of pods) await a.validator.validateCreate(pod); // p0 writes a grant of 4; p1, p2 come from it
    expect(await reservationsOf("cap")).toEqual([
      { pod: "p0", milliGPUs: 1000 },
      { pod: "grant/a", milliGPUs: 4000 },
    ]);
    for (const pod of pods) {
      a.tracker.upsertPod(pod);
      b.tracker.upsertPod(pod);
    }
    // To b, 3 counted and 4 granted leave 3: 6 GPUs would be 13/10. In fact 3 are in use (the grant's two
    // pods are among them), so b asks for the grant back and waits for a to convert it: a's cache is
    // not fed here, so a only does at the end of its use window (300 ms).
    await expect(b.validator.validateCreate(gpuPod("big", 6))).resolves.toEqual([]);
    expect(await reservationsOf("cap")).toEqual([
      { pod: "want/b", milliGPUs: 0 },
      { pod: "big", milliGPUs: 6000 },
    ]);
    await expect(b.validator.validateCreate(gpuPod("more", 2))).rejects.toThrow(
      "9 in use (3 allocated, 6 reserved), this pod asks for 2 (11/10)",
    );
  });

  it("is given back at once when another replica asks for it", async () => {
    const a = replica(client, { grants: grants("a", 60_000) });
    const b = replica(client, { grants: grants("b") });
    await addBudget([a, b], budget("cap", 10, { enforcement: "Deny" }));
    const pods = [0, 1, 2].map((i) => gpuPod(`p${i}`, 1, { resourceVersion: String(10 + i) }));
    for (const pod of pods) await a.validator.validateCreate(pod); // p0 writes a grant of 4; p1, p2 come from it
    for (const pod of pods) {
      a.tracker.upsertPod(pod);
      b.tracker.upsertPod(pod);
    }
    // a's cache, as its informer would feed it: every version of the budget b writes reaches a.
    const seen = (async () => {
      for (;;) {
        const now = await client.get(GPUBudgetKind, { namespace: NS, name: "cap" });
        a.reservations.observe(now);
        if (!now.status?.reservations?.some((r) => r.pod === "grant/a")) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    // Only a's grant stands in the way of 6 GPUs; its use window is a minute, yet b is admitted within
    // seconds (the deadline is 7 s): b's want made a convert now.
    const started = Date.now();
    await expect(b.validator.validateCreate(gpuPod("big", 6))).resolves.toEqual([]);
    expect(Date.now() - started).toBeLessThan(2_000);
    await seen;
    expect(await reservationsOf("cap")).toEqual([
      { pod: "want/b", milliGPUs: 0 },
      { pod: "big", milliGPUs: 6000 },
    ]);
    // And the cap holds: 3 counted and 6 reserved.
    await expect(b.validator.validateCreate(gpuPod("more", 2))).rejects.toThrow(
      "9 in use (3 allocated, 6 reserved), this pod asks for 2 (11/10)",
    );
  });

  it("takes no grant while another replica's request for them stands", async () => {
    const a = replica(client, { grants: grants("a") });
    const created = await addBudget([a], budget("cap", 40, { enforcement: "Deny" }));
    const wanting = {
      pod: "want/b",
      podUID: randomUUID(),
      milliGPUs: 0,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    };
    await client.status().update(GPUBudgetKind, { ...created, status: { reservations: [wanting] } });
    await a.validator.validateCreate(gpuPod("p0", 1));
    // 39 GPUs left, well over minRoomMilli: without b's want this write takes a grant of 19 (the first test).
    expect(await reservationsOf("cap")).toEqual([
      { pod: "want/b", milliGPUs: 0 },
      { pod: "p0", milliGPUs: 1000 },
    ]);
  });

  it("refuses past the cap without counting another replica's grant, whose pods it already counts", async () => {
    const a = replica(client, { grants: grants("a") });
    const b = replica(client, { grants: grants("b") });
    await addBudget([a, b], budget("cap", 10, { enforcement: "Deny" }));
    const running = Array.from({ length: 10 }, (_, i) =>
      gpuPod(`p${i}`, 1, { resourceVersion: String(10 + i) }),
    );
    for (const pod of running.slice(0, 5)) await a.validator.validateCreate(pod); // p0 writes a grant of 4; p1-p4 from it
    // Ten pods run (the grant's among them): b counts 10, and a's grant of 4 in full.
    for (const pod of running) b.tracker.upsertPod(pod);
    await expect(b.validator.validateCreate(gpuPod("more", 1))).rejects.toThrow(
      "allows 10 nvidia.com/gpu; 10 in use (10 allocated, 0 reserved), this pod asks for 1 (11/10)",
    );
  });

  it("refuses on a grant it cannot wait out: its holder's use window is long past", async () => {
    const a = replica(client, { grants: grants("a") });
    const b = replica(client, { grants: grants("b") });
    await addBudget([a, b], budget("cap", 10, { enforcement: "Deny" }));
    await a.validator.validateCreate(gpuPod("p0", 1));
    // As if a died holding its grant: its use window (expiresAt less the 30s TTL) ended 5s ago.
    const held = await client.get(GPUBudgetKind, { namespace: NS, name: "cap" });
    const reservations = (held.status?.reservations ?? []).map((x) =>
      x.pod === "grant/a" ? { ...x, expiresAt: new Date(Date.now() + 30_000 - 5_000).toISOString() } : x,
    );
    await client.status().update(GPUBudgetKind, { ...held, status: { ...held.status, reservations } });
    await expect(b.validator.validateCreate(gpuPod("big", 8))).rejects.toThrow(
      "5 in use (0 allocated, 5 reserved), this pod asks for 8 (13/10)",
    );
  });

  it("gives its grants back when the process is told to stop, and takes none after", async () => {
    const stop = new AbortController();
    const r = replica(client, { grants: grants("a"), stopping: stop.signal });
    await addBudget([r], budget("cap", 40, { enforcement: "Deny" }));
    await r.validator.validateCreate(gpuPod("p0", 1));
    await r.validator.validateCreate(gpuPod("p1", 1)); // from the grant
    expect(await reservationsOf("cap")).toEqual([
      { pod: "p0", milliGPUs: 1000 },
      { pod: "grant/a", milliGPUs: 19000 },
    ]);
    stop.abort();
    await vi.waitFor(
      async () =>
        expect(await reservationsOf("cap")).toEqual([
          { pod: "p0", milliGPUs: 1000 },
          { pod: "p1", milliGPUs: 1000 },
        ]),
      {
        timeout: 5_000,
      },
    );
    await r.validator.validateCreate(gpuPod("p2", 1));
    expect((await reservationsOf("cap")).map((x) => x.pod)).toEqual(["p0", "p1", "p2"]);
  });

  it("ends its grant when the budget's spec changes: the next pod is decided with a write", async () => {
    const counting = countingWrites();
    const r = replica(counting.client, { grants: grants("a") });
    await addBudget([r], budget("cap", 40, { enforcement: "Deny" }));
    await r.validator.validateCreate(gpuPod("p0", 1));
    await r.validator.validateCreate(gpuPod("p1", 1)); // from the grant
    expect(counting.writes()).toBe(1);
    const current = await client.get(GPUBudgetKind, { namespace: NS, name: "cap" });
    await client.update(GPUBudgetKind, { ...current, spec: { ...current.spec, maxGPUs: 3 } });
    await expect(r.validator.validateCreate(gpuPod("p2", 1))).resolves.toEqual([]);
    expect(counting.writes()).toBe(2);
    await expect(r.validator.validateCreate(gpuPod("p3", 1))).rejects.toThrow(
      "3 in use (0 allocated, 3 reserved), this pod asks for 1 (4/3)",
    );
  });

  it("takes none while the room left is below minRoomMilli", async () => {
    const r = replica(client, { grants: grants("a") });
    await addBudget([r], budget("small", 4, { enforcement: "Deny" }));
    await r.validator.validateCreate(gpuPod("p0", 1));
    expect(await reservationsOf("small")).toEqual([{ pod: "p0", milliGPUs: 1000 }]);
  });
});
