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

// Unit tests with the fake client: no cluster. The fake reads the real CRD (config/crd/bases), so
// the status subresource, defaulting, validation and CEL rules behave as on the API server.
import { fileURLToPath } from "node:url";
import { newReconcileContext } from "@kbts/runtime";
import { createFakeClient } from "@kbts/runtime/fake";
import { describe, expect, it } from "vitest";
import type { CronTab } from "../../api/v1/crontab_types.js";
import { CronTabKind } from "../../api/v1/zz_generated.kinds.js";
import { CronTabReconciler, FINALIZER } from "./crontab_controller.js";

const crds = fileURLToPath(new URL("../../config/crd/bases", import.meta.url));
const key = { namespace: "default", name: "my-crontab" };
const context = () => newReconcileContext({ controllerName: "crontab" });
const cronTab = (cronSpec = "*/5 * * * *"): CronTab => ({
  apiVersion: "stable.example.com/v1",
  kind: "CronTab",
  metadata: { ...key },
  spec: { cronSpec, image: "busybox" },
});

describe("CronTabReconciler (fake client)", () => {
  it("adds the finalizer, records lastScheduled and requeues after a minute", async () => {
    const client = createFakeClient({ crdDirectoryPaths: [crds], objects: [cronTab()] });
    const result = await new CronTabReconciler(client).reconcile(key, context());
    expect(result).toEqual({ requeueAfter: "1m" });
    const ct = await client.get(CronTabKind, key);
    expect(ct.metadata?.finalizers).toEqual([FINALIZER]);
    expect(ct.status?.lastScheduled).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(ct.spec.replicas).toBe(1); // the CRD's default
  });

  it("cleans up and removes the finalizer when the CronTab is deleted", async () => {
    const client = createFakeClient({ crdDirectoryPaths: [crds], objects: [cronTab()] });
    const cleaned: string[] = [];
    const reconciler = new CronTabReconciler(client, async (ct) => {
      cleaned.push(ct.metadata?.name ?? "");
    });
    await reconciler.reconcile(key, context());
    await client.delete(CronTabKind, key);
    expect((await client.get(CronTabKind, key)).metadata?.deletionTimestamp).toBeDefined();
    await reconciler.reconcile(key, context());
    expect(cleaned).toEqual(["my-crontab"]);
    await expect(client.get(CronTabKind, key)).rejects.toThrow(/not found/);
  });

  it("treats a CronTab that no longer exists as done", async () => {
    const client = createFakeClient({ crdDirectoryPaths: [crds] });
    await expect(new CronTabReconciler(client).reconcile(key, context())).resolves.toBeUndefined();
  });

  it("refuses a schedule without five fields, as the CRD's CEL rule does", async () => {
    const client = createFakeClient({ crdDirectoryPaths: [crds] });
    await expect(client.create(CronTabKind, cronTab("*/5 * * *"))).rejects.toThrow(
      /cronSpec must have five fields/,
    );
  });
});
