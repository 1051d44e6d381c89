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
import { type Client, createClient, createManager, Namespace, Pod } from "@kbts/runtime";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GPUBudget } from "../../api/v1alpha1/gpubudget_types.js";
import { GPUBudgetKind } from "../../api/v1alpha1/zz_generated.kinds.js";
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
  enforcement: "Report" | "Deny" = "Report",
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
