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

// Integration tests on a local control plane (etcd + kube-apiserver from `kbts setup-envtest`): the
// real manager, cache, controller and webhook server, as in production, minus the kubelet (pods stay
// Pending, which is all the controller needs: it counts what pods request).
import { fileURLToPath } from "node:url";
import {
  type Client,
  createClient,
  createManager,
  defineKind,
  Event,
  type KubernetesObject,
  metricsRegistry,
  Namespace,
  Pod,
} from "@kbts/runtime";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GPUBudget } from "../../api/v1alpha1/gpubudget_types.js";
import { GPUBudgetKind } from "../../api/v1alpha1/zz_generated.kinds.js";
import { formatGPUHours, GPU_HOURS_FINALIZER } from "../ledger/ledger.js";
import {
  isQueued,
  POD_GROUP_LABEL,
  POD_GROUP_SIZE_ANNOTATION,
  QUEUE_GATE,
  QUEUED_CONDITION,
} from "../queue/queue.js";
import { setupPodWebhookWithManager } from "../webhook/v1/pod_webhook.js";
import { setupGPUBudgetController } from "./gpubudget_controller.js";

const CRDS = fileURLToPath(new URL("../../config/crd/bases", import.meta.url));
const WEBHOOKS = fileURLToPath(new URL("../../config/webhook/manifests.yaml", import.meta.url));
const GPU = "nvidia.com/gpu";

let env: Environment;
let client: Client;
let stopManager: AbortController;
let manager: Promise<void>;

/** Polls until `check` stops throwing, or fails with its last error at the deadline. */
async function eventually<T>(check: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

beforeAll(async () => {
  env = await startEnvironment({ crdDirectoryPaths: [CRDS], webhookInstallOptions: { paths: [WEBHOOKS] } });
  const serving = env.webhookInstallOptions;
  const mgr = createManager({
    kubeConfig: env.kubeConfig,
    metricsBindAddress: "0",
    healthProbeBindAddress: "0",
    webhookServer: {
      host: serving?.localServingHost,
      port: serving?.localServingPort,
      certDir: serving?.localServingCertDir,
    },
  });
  await setupGPUBudgetController(mgr);
  await setupPodWebhookWithManager(mgr);
  stopManager = new AbortController();
  manager = mgr.start(stopManager.signal);
  await mgr.getWebhookServer().started();
  client = createClient(env.kubeConfig);
});

afterAll(async () => {
  stopManager?.abort();
  await manager;
  await env?.stop();
});

let n = 0;
async function namespace(): Promise<string> {
  const name = `team-${++n}`;
  await client.create(Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name } });
  return name;
}

function gpuPod(namespace: string, name: string, gpus: number, nodeName?: string): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace },
    spec: {
      nodeName,
      containers: [{ name: "main", image: "busybox", resources: { limits: { [GPU]: String(gpus) } } }],
    },
  };
}

function budget(
  namespace: string,
  name: string,
  maxGPUs: number,
  enforcement: "Report" | "Deny" | "Queue" = "Report",
): GPUBudget {
  return {
    apiVersion: "capacity.lab.example.com/v1alpha1",
    kind: "GPUBudget",
    metadata: { name, namespace },
    spec: { maxGPUs, enforcement },
  };
}

async function readyOf(namespace: string, name: string) {
  const b = await client.get(GPUBudgetKind, { namespace, name });
  return { allocated: b.status?.allocatedGPUs, ready: b.status?.conditions?.find((c) => c.type === "Ready") };
}

describe("GPUBudget controller", () => {
  it("marks a budget exceeded by a pod's limits, and recovers when the pod succeeds", async () => {
    const ns = await namespace();
    await client.create(GPUBudgetKind, budget(ns, "budget", 4));
    const pod = await client.create(Pod, gpuPod(ns, "g1", 6));
    await eventually(async () => {
      const { allocated, ready } = await readyOf(ns, "budget");
      expect(allocated).toBe(6);
      expect(ready).toMatchObject({ status: "False", reason: "BudgetExceeded", message: "6/4 GPUs" });
    });
    await client.status().update(Pod, { ...pod, status: { ...pod.status, phase: "Succeeded" } });
    await eventually(async () => {
      const { allocated, ready } = await readyOf(ns, "budget");
      expect(allocated).toBe(0);
      expect(ready).toMatchObject({ status: "True", reason: "WithinBudget", message: "0/4 GPUs" });
    });
  });

  it("follows a spec change (generation) of the budget", async () => {
    const ns = await namespace();
    const b = await client.create(GPUBudgetKind, budget(ns, "budget", 4));
    await client.create(Pod, gpuPod(ns, "g1", 6));
    await eventually(async () => expect((await readyOf(ns, "budget")).ready?.status).toBe("False"));
    const current = await client.get(GPUBudgetKind, { namespace: ns, name: b.metadata?.name ?? "" });
    await client.update(GPUBudgetKind, { ...current, spec: { ...current.spec, maxGPUs: 8 } });
    await eventually(async () =>
      expect((await readyOf(ns, "budget")).ready).toMatchObject({ status: "True", message: "6/8 GPUs" }),
    );
  });

  it("puts back a count someone else wrote, as a leader's late write after a failover would", async () => {
    const ns = await namespace();
    await client.create(GPUBudgetKind, budget(ns, "budget", 4));
    await client.create(Pod, gpuPod(ns, "g1", 3));
    await eventually(async () => expect((await readyOf(ns, "budget")).allocated).toBe(3));
    // No pod changes after this write, and the generation stays: only the status event can wake it.
    const current = await client.get(GPUBudgetKind, { namespace: ns, name: "budget" });
    await client
      .status()
      .update(GPUBudgetKind, { ...current, status: { ...current.status, allocatedGPUs: 2 } });
    await eventually(async () => expect((await readyOf(ns, "budget")).allocated).toBe(3));
  });

  it("stops counting a pod stuck terminating within one reconcile of its deletion timestamp plus grace", async () => {
    const ns = await namespace();
    await client.create(GPUBudgetKind, budget(ns, "budget", 4));
    // Bound to a node no kubelet serves: a graceful delete leaves it terminating, as on a lost node.
    await client.create(Pod, gpuPod(ns, "stuck", 2, "lost-node"));
    await eventually(async () => expect((await readyOf(ns, "budget")).allocated).toBe(2));
    await client.delete(Pod, { namespace: ns, name: "stuck" }, { gracePeriodSeconds: 2 });
    const stuck = await client.get(Pod, { namespace: ns, name: "stuck" });
    const stopsCountingAt = Date.parse(stuck.metadata?.deletionTimestamp ?? "") + 2_000;
    // No event arrives at that moment: the reconcile that was requeued for it does the work.
    const seen = await eventually(async () => {
      expect((await readyOf(ns, "budget")).allocated).toBe(0);
      return Date.now();
    }, 30_000);
    expect(seen).toBeGreaterThanOrEqual(stopsCountingAt - 1_000); // deletionTimestamp has second precision
    expect(seen - stopsCountingAt).toBeLessThan(3_000);
    expect(
      (await client.get(Pod, { namespace: ns, name: "stuck" })).metadata?.deletionTimestamp,
    ).toBeDefined();
  });
});

describe("spec.gpuHours", () => {
  it("charges a deleted pod exactly once, held by its finalizer, and refuses the next pod once spent", async () => {
    const ns = await namespace();
    // 0.05 GPU-hours: 180 GPU-seconds.
    await client.create(GPUBudgetKind, {
      ...budget(ns, "hours", 8, "Deny"),
      spec: { maxGPUs: 8, enforcement: "Deny", gpuHours: { limit: "0.05", window: "daily" } },
    });
    const pod = await client.create(Pod, gpuPod(ns, "trainer", 2, "gpu-node"));
    await eventually(async () => {
      const p = await client.get(Pod, { namespace: ns, name: "trainer" });
      expect(p.metadata?.finalizers).toContain(GPU_HOURS_FINALIZER);
    });
    // No kubelet here: the pod is said to have started 100 s ago, so its 2 GPUs have used 200 GPU-seconds.
    const startedAt = Math.floor(Date.now() / 1000) * 1000 - 100_000;
    const current = await client.get(Pod, { namespace: ns, name: "trainer" });
    await client.status().update(Pod, {
      ...current,
      status: { ...pod.status, phase: "Running", startTime: new Date(startedAt).toISOString() },
    });
    await eventually(async () => {
      const b = await client.get(GPUBudgetKind, { namespace: ns, name: "hours" });
      expect(b.status?.conditions?.find((c) => c.type === "GPUHoursAvailable")).toMatchObject({
        status: "False",
        reason: "Spent",
      });
      expect(Number(b.status?.gpuHours?.usedGPUHours)).toBeGreaterThanOrEqual(0.05);
    });
    // Spent: a new pod is refused however many GPUs maxGPUs leaves.
    await expect(client.create(Pod, gpuPod(ns, "next", 1))).rejects.toThrow(
      /GPU-hours in its window \(daily/,
    );

    await client.delete(Pod, { namespace: ns, name: "trainer" }, { gracePeriodSeconds: 0 });
    const deletedAt = Date.parse(
      (await client.get(Pod, { namespace: ns, name: "trainer" }).catch(() => current)).metadata
        ?.deletionTimestamp ?? "",
    );
    // The finalizer held the pod until its time was charged; then it goes, and its uid leaves the ledger.
    const charged = await eventually(async () => {
      await expect(client.get(Pod, { namespace: ns, name: "trainer" })).rejects.toThrow(/not found/);
      const b = await client.get(GPUBudgetKind, { namespace: ns, name: "hours" });
      expect(b.status?.gpuHours?.recordedPods ?? []).toEqual([]);
      return b.status?.gpuHours;
    });
    expect(Number.isFinite(deletedAt)).toBe(true);
    const expected = 2000 * ((deletedAt - startedAt) / 1000);
    expect((charged?.periods ?? []).reduce((sum, p) => sum + p.milliGPUSeconds, 0)).toBe(expected);
    expect(charged?.usedGPUHours).toBe(formatGPUHours(expected));
  });
});

describe("Pod webhook", () => {
  it("refuses a pod that would push a Deny budget past its cap, and admits one that fits", async () => {
    const ns = await namespace();
    await client.create(GPUBudgetKind, budget(ns, "cap", 4, "Deny"));
    // The webhook reads budgets from the manager's cache: wait until the budget is there.
    await eventually(async () => expect((await readyOf(ns, "cap")).ready?.status).toBe("True"));
    await expect(client.create(Pod, gpuPod(ns, "too-big", 6))).rejects.toThrow(
      /GPUBudget .*\/cap allows 4 nvidia.com\/gpu; 0 in use \(0 allocated, 0 reserved\), this pod asks for 6 \(6\/4\)/,
    );
    await client.create(Pod, gpuPod(ns, "fits", 4));
  });
});

/** Status writes this process had refused as conflicts so far (its client's PUTs answered 409). */
async function conflicts(): Promise<number> {
  const counter = await metricsRegistry.getSingleMetric("rest_client_requests_total")?.get();
  return (counter?.values ?? [])
    .filter((v) => v.labels.code === "409" && v.labels.method === "PUT")
    .reduce((n, v) => n + v.value, 0);
}

describe("status writes", () => {
  it("never conflict between the controller and the webhook of one replica, under churn", async () => {
    const ns = await namespace();
    await client.create(GPUBudgetKind, budget(ns, "churn", 100, "Deny"));
    await eventually(async () => expect((await readyOf(ns, "churn")).ready?.status).toBe("True"));
    const before = await conflicts();
    // Each admission writes a reservation, and each pod event may make the controller rewrite the counts.
    for (let round = 0; round < 4; round++) {
      const names = Array.from({ length: 10 }, (_, i) => `p${round}-${i}`);
      await Promise.all(names.map((name) => client.create(Pod, gpuPod(ns, name, 1))));
      await Promise.all(names.map((name) => client.delete(Pod, { namespace: ns, name })));
    }
    await eventually(async () => expect(await readyOf(ns, "churn")).toMatchObject({ allocated: 0 }));
    expect((await conflicts()) - before).toBe(0);
  });
});

const PriorityClass = defineKind<KubernetesObject & { value: number }>({
  group: "scheduling.k8s.io",
  version: "v1",
  kind: "PriorityClass",
  plural: "priorityclasses",
  namespaced: false,
});

/** The pods of a namespace that still wait behind the Queue gate, by name. */
async function gated(ns: string): Promise<string[]> {
  const pods = await client.list(Pod, { namespace: ns });
  return pods
    .filter(isQueued)
    .map((p) => p.metadata?.name ?? "")
    .sort();
}

describe("enforcement: Queue", () => {
  it("gates every pod it counts, releases them by priority then arrival as GPUs free up", async () => {
    const ns = await namespace();
    await client.create(GPUBudgetKind, budget(ns, "queue", 2, "Queue"));
    await eventually(async () => expect((await readyOf(ns, "queue")).ready?.status).toBe("True"));
    const created = [];
    for (const name of ["a", "b", "c"]) created.push(await client.create(Pod, gpuPod(ns, name, 1)));
    // The defaulter gated each one at creation, so none ever held a GPU before its release.
    for (const p of created) expect(p.spec?.schedulingGates).toContainEqual({ name: QUEUE_GATE });
    await eventually(async () => {
      expect(await gated(ns)).toEqual(["c"]);
      const b = await client.get(GPUBudgetKind, { namespace: ns, name: "queue" });
      expect(b.status).toMatchObject({ allocatedGPUs: 2, queuedGPUs: 1, queuedPods: 1 });
    });
    await eventually(async () => {
      const events = await client.list(Event, { namespace: ns });
      const queued = events.find((e) => e.involvedObject?.name === "c" && e.reason === "Queued");
      expect(queued?.message).toMatch(/position 1 of 1/);
      // The pod itself says why it waits, and a released pod that it was released.
      const c = await client.get(Pod, { namespace: ns, name: "c" });
      expect(c.status?.conditions?.find((x) => x.type === QUEUED_CONDITION)).toMatchObject({
        status: "True",
        reason: "WaitingForGPUs",
        message: expect.stringContaining("position 1 of 1"),
      });
      const a = await client.get(Pod, { namespace: ns, name: "a" });
      expect(a.status?.conditions?.find((x) => x.type === QUEUED_CONDITION)).toMatchObject({
        status: "False",
        reason: "Released",
      });
    });

    // A later pod of higher priority goes before c.
    const urgent = `urgent-${ns}`;
    await client.create(PriorityClass, {
      apiVersion: "scheduling.k8s.io/v1",
      kind: "PriorityClass",
      metadata: { name: urgent },
      value: 1000,
    });
    const d = gpuPod(ns, "d", 1);
    if (d.spec) d.spec.priorityClassName = urgent;
    // The API server's Priority admission resolves the class from its own informer: a moment after the
    // class is created it may still refuse the pod ("no PriorityClass ... was found").
    await eventually(() => client.create(Pod, d));
    await eventually(async () =>
      expect((await client.get(GPUBudgetKind, { namespace: ns, name: "queue" })).status?.queuedPods).toBe(2),
    );
    const a = await client.get(Pod, { namespace: ns, name: "a" });
    await client.status().update(Pod, { ...a, status: { ...a.status, phase: "Succeeded" } });
    await eventually(async () => expect(await gated(ns)).toEqual(["c"]));
    const b = await client.get(Pod, { namespace: ns, name: "b" });
    await client.status().update(Pod, { ...b, status: { ...b.status, phase: "Succeeded" } });
    await eventually(async () => {
      expect(await gated(ns)).toEqual([]);
      expect((await client.get(GPUBudgetKind, { namespace: ns, name: "queue" })).status).toMatchObject({
        allocatedGPUs: 2,
        queuedPods: 0,
      });
    });
  });

  it("releases a gang of 4 whole, never half", async () => {
    const ns = await namespace();
    await client.create(GPUBudgetKind, budget(ns, "queue", 4, "Queue"));
    await eventually(async () => expect((await readyOf(ns, "queue")).ready?.status).toBe("True"));
    await client.create(Pod, gpuPod(ns, "running", 1));
    await eventually(async () => expect(await gated(ns)).toEqual([]));
    const gang = ["g0", "g1", "g2", "g3"];
    for (const name of gang) {
      const p = gpuPod(ns, name, 1);
      p.metadata = {
        ...p.metadata,
        labels: { [POD_GROUP_LABEL]: "train" },
        annotations: { [POD_GROUP_SIZE_ANNOTATION]: "4" },
      };
      await client.create(Pod, p);
    }
    // 3 GPUs are free and the gang needs 4: it waits whole (each member's create reconciled the budget).
    await eventually(async () =>
      expect((await client.get(GPUBudgetKind, { namespace: ns, name: "queue" })).status?.queuedPods).toBe(4),
    );
    expect(await gated(ns)).toEqual(gang);
    const running = await client.get(Pod, { namespace: ns, name: "running" });
    await client.status().update(Pod, { ...running, status: { ...running.status, phase: "Succeeded" } });
    await eventually(async () => {
      expect(await gated(ns)).toEqual([]);
      expect((await client.get(GPUBudgetKind, { namespace: ns, name: "queue" })).status).toMatchObject({
        allocatedGPUs: 4,
        queuedPods: 0,
      });
    });
  });
});

describe("cohorts", () => {
  function member(
    namespace: string,
    name: string,
    maxGPUs: number,
    cohort: string,
    minRuntime?: string,
  ): GPUBudget {
    const b = budget(namespace, name, maxGPUs, "Queue");
    b.spec = { ...b.spec, cohort, ...(minRuntime ? { reclaim: { minRuntime } } : {}) };
    return b;
  }

  /** Creates a 1-GPU pod and waits until the queue released it. */
  async function released(ns: string, name: string): Promise<void> {
    await client.create(Pod, gpuPod(ns, name, 1));
    await eventually(async () => expect(await gated(ns)).not.toContain(name));
  }

  it("lets a Queue budget borrow beyond maxGPUs what a peer of its cohort does not use", async () => {
    const [a, b] = [await namespace(), await namespace()];
    const cohort = `lab-${a}`;
    await client.create(GPUBudgetKind, member(a, "borrower", 1, cohort));
    await client.create(GPUBudgetKind, member(b, "lender", 2, cohort));
    await eventually(async () => expect((await readyOf(b, "lender")).ready?.status).toBe("True"));
    for (const name of ["p1", "p2", "p3"]) await released(a, name);
    await client.create(Pod, gpuPod(a, "p4", 1));
    await eventually(async () => {
      // 3 of the cohort's 3 GPUs are held: the fourth waits.
      expect(await gated(a)).toEqual(["p4"]);
      const borrower = await client.get(GPUBudgetKind, { namespace: a, name: "borrower" });
      expect(borrower.status).toMatchObject({ allocatedGPUs: 3, borrowedGPUs: 2, queuedPods: 1 });
      expect(borrower.status?.conditions?.find((c) => c.type === "Ready")).toMatchObject({
        status: "True",
        message: `3/1 GPUs (2 borrowed from cohort ${cohort})`,
      });
      expect((await client.get(GPUBudgetKind, { namespace: b, name: "lender" })).status).toMatchObject({
        allocatedGPUs: 0,
        borrowedGPUs: 0,
        lentGPUs: 2,
      });
    });
  });

  it("gives freed GPUs first to the borrower with less recent GPU use", async () => {
    const [a, b, l] = [await namespace(), await namespace(), await namespace()];
    const cohort = `lab-${a}`;
    await client.create(GPUBudgetKind, member(a, "busy", 1, cohort));
    await client.create(GPUBudgetKind, member(b, "quiet", 1, cohort));
    await client.create(GPUBudgetKind, member(l, "lender", 2, cohort));
    await eventually(async () => expect((await readyOf(l, "lender")).ready?.status).toBe("True"));
    // a has used a GPU for a moment already (from its release to its end); b has not.
    await released(a, "warmup");
    const warmup = await client.get(Pod, { namespace: a, name: "warmup" });
    await client.status().update(Pod, { ...warmup, status: { ...warmup.status, phase: "Succeeded" } });
    await eventually(async () => {
      const busy = await client.get(GPUBudgetKind, { namespace: a, name: "busy" });
      expect(busy.status?.allocatedGPUs).toBe(0);
      expect(busy.status?.recentUsage?.milliGPUSeconds).toBeGreaterThan(0);
    });
    // Every GPU of the cohort in use: each budget's own, and both of the lender's.
    await released(a, "a1");
    await released(b, "b1");
    await released(l, "l1");
    await released(l, "l2");
    // a's pod waits first, so without the fair order a (reconciled first) would take the freed GPU.
    await client.create(Pod, gpuPod(a, "a2", 1));
    await eventually(async () =>
      expect((await client.get(GPUBudgetKind, { namespace: a, name: "busy" })).status?.queuedPods).toBe(1),
    );
    await client.create(Pod, gpuPod(b, "b2", 1));
    await eventually(async () =>
      expect((await client.get(GPUBudgetKind, { namespace: b, name: "quiet" })).status?.queuedPods).toBe(1),
    );
    const busy = await client.get(GPUBudgetKind, { namespace: a, name: "busy" });
    const quiet = await client.get(GPUBudgetKind, { namespace: b, name: "quiet" });
    expect(busy.status?.recentUsage?.milliGPUSeconds ?? 0).toBeGreaterThan(
      quiet.status?.recentUsage?.milliGPUSeconds ?? 0,
    );
    // a2 is told who borrows before it.
    await eventually(async () => {
      const a2 = await client.get(Pod, { namespace: a, name: "a2" });
      expect(a2.status?.conditions?.find((c) => c.type === QUEUED_CONDITION)?.message).toContain(
        `fair order ${b}/quiet borrows first: it has used fewer GPUs recently`,
      );
    });

    const l1 = await client.get(Pod, { namespace: l, name: "l1" });
    await client.status().update(Pod, { ...l1, status: { ...l1.status, phase: "Succeeded" } });
    await eventually(async () => {
      expect(await gated(b)).toEqual([]);
      expect(await gated(a)).toEqual(["a2"]);
      expect((await client.get(GPUBudgetKind, { namespace: b, name: "quiet" })).status).toMatchObject({
        allocatedGPUs: 2,
        borrowedGPUs: 1,
      });
    });
    // The next freed GPU goes to a: the fair order delays a borrower, never strands it.
    const l2 = await client.get(Pod, { namespace: l, name: "l2" });
    await client.status().update(Pod, { ...l2, status: { ...l2.status, phase: "Succeeded" } });
    await eventually(async () => expect(await gated(a)).toEqual([]));
  });

  it("reclaims the newest borrowed pod for a lender once it has run minRuntime, and not before", async () => {
    const [a, b] = [await namespace(), await namespace()];
    const cohort = `lab-${a}`;
    await client.create(GPUBudgetKind, member(a, "borrower", 1, cohort, "6s"));
    await client.create(GPUBudgetKind, member(b, "lender", 2, cohort));
    await eventually(async () => expect((await readyOf(b, "lender")).ready?.status).toBe("True"));
    for (const name of ["p1", "p2", "p3"]) await released(a, name);
    const p3 = await client.get(Pod, { namespace: a, name: "p3" });
    const releasedAt = Date.parse(
      p3.status?.conditions?.find((c) => c.type === QUEUED_CONDITION)?.lastTransitionTime ?? "",
    );
    // The lender wants one of its own GPUs back: the cohort is full, so p3 (the newest) must go, after 6s.
    await client.create(Pod, gpuPod(b, "mine", 1));
    await eventually(async () =>
      expect((await client.get(GPUBudgetKind, { namespace: b, name: "lender" })).status?.queuedPods).toBe(1),
    );
    expect(Date.now()).toBeLessThan(releasedAt + 5_000);
    expect((await client.list(Pod, { namespace: a })).map((p) => p.metadata?.name).sort()).toEqual([
      "p1",
      "p2",
      "p3",
    ]);
    const goneAt = await eventually(async () => {
      expect((await client.list(Pod, { namespace: a })).map((p) => p.metadata?.name).sort()).toEqual([
        "p1",
        "p2",
      ]);
      return Date.now();
    }, 30_000);
    expect(goneAt).toBeGreaterThanOrEqual(releasedAt + 6_000 - 1_000); // lastTransitionTime has second precision
    await eventually(async () => {
      expect(await gated(b)).toEqual([]);
      expect((await client.get(GPUBudgetKind, { namespace: b, name: "lender" })).status).toMatchObject({
        allocatedGPUs: 1,
        queuedPods: 0,
      });
      expect((await client.get(GPUBudgetKind, { namespace: a, name: "borrower" })).status).toMatchObject({
        allocatedGPUs: 2,
        borrowedGPUs: 1,
      });
      const events = [
        ...(await client.list(Event, { namespace: a })),
        ...(await client.list(Event, { namespace: b })),
      ];
      const reclaimed = events
        .filter((e) => e.reason === "Reclaimed")
        .map((e) => `${e.involvedObject?.kind}/${e.involvedObject?.name}`);
      expect(reclaimed.sort()).toEqual(["GPUBudget/borrower", "GPUBudget/lender", "Pod/p3"]);
    });
  });
});
