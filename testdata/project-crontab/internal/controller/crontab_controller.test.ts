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

// Against a local control plane (etcd + kube-apiserver): the same flow on the real API server.
import { newReconcileContext } from "@kbts/runtime";
import { afterEach, describe, expect, it } from "vitest";
import type { CronTab } from "../../api/v1/crontab_types.js";
import { CronTabKind } from "../../api/v1/zz_generated.kinds.js";
import { CronTabReconciler, FINALIZER } from "./crontab_controller.js";
import { useTestEnvironment } from "./suite_test.js";

describe("CronTab Controller", () => {
  const env = useTestEnvironment();
  const key = { name: "test-resource", namespace: "default" };

  const context = () => newReconcileContext({ controllerName: "crontab" });

  afterEach(async () => {
    // Clear the finalizer first, or the object would stay "being deleted" for the next test.
    const client = env.client();
    const ct = await client.get(CronTabKind, key).catch(() => undefined);
    if (!ct) return;
    if (ct.metadata?.finalizers?.length) {
      ct.metadata.finalizers = [];
      await client.update(CronTabKind, ct);
    }
    await client.delete(CronTabKind, key).catch(() => undefined);
  });

  it("adds the finalizer, then updates status on the same object, and requeues", async () => {
    const client = env.client();
    const resource: CronTab = {
      apiVersion: "stable.example.com/v1",
      kind: "CronTab",
      metadata: { ...key },
      spec: { cronSpec: "*/5 * * * *", image: "busybox" },
    };
    await client.create(CronTabKind, resource);

    const result = await new CronTabReconciler(client).reconcile(key, context());

    expect(result).toEqual({ requeueAfter: "1m" });
    const reconciled = await client.get(CronTabKind, key);
    expect(reconciled.metadata?.finalizers).toEqual([FINALIZER]);
    expect(reconciled.status?.lastScheduled).toBeDefined();
  });

  it("runs the cleanup and lets the CronTab go on delete", async () => {
    const client = env.client();
    await client.create(CronTabKind, {
      apiVersion: "stable.example.com/v1",
      kind: "CronTab",
      metadata: { ...key },
      spec: { cronSpec: "0 * * * *", image: "busybox" },
    });
    let cleaned = 0;
    const reconciler = new CronTabReconciler(client, async () => {
      cleaned++;
    });
    await reconciler.reconcile(key, context());
    await client.delete(CronTabKind, key);
    await reconciler.reconcile(key, context());
    expect(cleaned).toBe(1);
    await expect(client.get(CronTabKind, key)).rejects.toThrow(/not found/);
  });

  it("should ignore a resource that no longer exists", async () => {
    const reconciler = new CronTabReconciler(env.client());
    await expect(reconciler.reconcile({ ...key, name: "missing" }, context())).resolves.toBeUndefined();
  });
});
