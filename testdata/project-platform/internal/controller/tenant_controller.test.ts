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
import type { Tenant } from "../../api/v1alpha1/tenant_types.js";
import { TenantKind } from "../../api/v1alpha1/zz_generated.kinds.js";
import { useTestEnvironment } from "./suite_test.js";
import { TenantReconciler } from "./tenant_controller.js";

describe("Tenant Controller", () => {
  const env = useTestEnvironment();
  const key = { name: "test-resource", namespace: "default" };

  const context = () => newReconcileContext({ controllerName: "tenant" });

  afterEach(async () => {
    // Cleanup the specific resource instance Tenant: clear its finalizers first, or once the
    // reconciler adds one the object stays "being deleted" and the next test cannot create it.
    const client = env.client();
    const existing = await client.get(TenantKind, key).catch(() => undefined);
    if (!existing) return;
    if (existing.metadata?.finalizers?.length) {
      existing.metadata.finalizers = [];
      await client.update(TenantKind, existing);
    }
    await client.delete(TenantKind, key).catch(() => undefined);
  });

  it("should successfully reconcile the resource", async () => {
    const client = env.client();
    const resource: Tenant = {
      apiVersion: "platform.example.com/v1alpha1",
      kind: "Tenant",
      metadata: { ...key },
      spec: {},
    };
    await client.create(TenantKind, resource);

    const reconciler = new TenantReconciler(client);
    await reconciler.reconcile(key, context());

    const reconciled = await client.get(TenantKind, key);
    const available = findStatusCondition(reconciled.status?.conditions, "Available");
    expect(available?.status).toBe("True");
    expect(available?.observedGeneration).toBe(reconciled.metadata?.generation);
  });

  it("should ignore a resource that no longer exists", async () => {
    const reconciler = new TenantReconciler(env.client());
    await expect(reconciler.reconcile({ ...key, name: "missing" }, context())).resolves.toBeUndefined();
  });
});
