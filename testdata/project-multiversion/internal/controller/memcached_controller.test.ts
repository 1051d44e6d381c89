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

import { findStatusCondition, newReconcileContext } from "@kbts/runtime";
import { afterEach, describe, expect, it } from "vitest";
import type { Memcached } from "../../api/v1alpha1/memcached_types.js";
import { MemcachedKind } from "../../api/v1alpha1/zz_generated.kinds.js";
import { MemcachedReconciler } from "./memcached_controller.js";
import { useTestEnvironment } from "./suite_test.js";

describe("Memcached Controller", () => {
  const env = useTestEnvironment();
  const key = { name: "test-resource", namespace: "default" };

  const context = () => newReconcileContext({ controllerName: "memcached" });

  afterEach(async () => {
    // Cleanup the specific resource instance Memcached: clear its finalizers first, or once the
    // reconciler adds one the object stays "being deleted" and the next test cannot create it.
    const client = env.client();
    const existing = await client.get(MemcachedKind, key).catch(() => undefined);
    if (!existing) return;
    if (existing.metadata?.finalizers?.length) {
      existing.metadata.finalizers = [];
      await client.update(MemcachedKind, existing);
    }
    await client.delete(MemcachedKind, key).catch(() => undefined);
  });

  it("should successfully reconcile the resource", async () => {
    const client = env.client();
    const resource: Memcached = {
      apiVersion: "cache.example.com/v1alpha1",
      kind: "Memcached",
      metadata: { ...key },
      spec: {},
    };
    await client.create(MemcachedKind, resource);

    const reconciler = new MemcachedReconciler(client);
    await reconciler.reconcile(key, context());

    const reconciled = await client.get(MemcachedKind, key);
    const available = findStatusCondition(reconciled.status?.conditions, "Available");
    expect(available?.status).toBe("True");
    expect(available?.observedGeneration).toBe(reconciled.metadata?.generation);
  });

  it("should ignore a resource that no longer exists", async () => {
    const reconciler = new MemcachedReconciler(env.client());
    await expect(reconciler.reconcile({ ...key, name: "missing" }, context())).resolves.toBeUndefined();
  });
});
