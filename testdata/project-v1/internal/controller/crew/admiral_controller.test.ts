/*
Copyright 2026 The kbts authors.

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
import type { Admiral } from "../../../api/crew/v1/admiral_types.js";
import { AdmiralKind } from "../../../api/crew/v1/zz_generated.kinds.js";
import { AdmiralReconciler } from "./admiral_controller.js";
import { useTestEnvironment } from "./suite_test.js";

describe("Admiral Controller", () => {
  const env = useTestEnvironment();
  const key = { name: "test-resource" };

  const context = () => newReconcileContext({ controllerName: "crew-admiral" });

  afterEach(async () => {
    // Cleanup the specific resource instance Admiral: clear its finalizers first, or once the
    // reconciler adds one the object stays "being deleted" and the next test cannot create it.
    const client = env.client();
    const existing = await client.get(AdmiralKind, key).catch(() => undefined);
    if (!existing) return;
    if (existing.metadata?.finalizers?.length) {
      existing.metadata.finalizers = [];
      await client.update(AdmiralKind, existing);
    }
    await client.delete(AdmiralKind, key).catch(() => undefined);
  });

  it("should successfully reconcile the resource", async () => {
    const client = env.client();
    const resource: Admiral = {
      apiVersion: "crew.testproject.org/v1",
      kind: "Admiral",
      metadata: { ...key },
      spec: {},
    };
    await client.create(AdmiralKind, resource);

    const reconciler = new AdmiralReconciler(client);
    await reconciler.reconcile(key, context());

    const reconciled = await client.get(AdmiralKind, key);
    const available = findStatusCondition(reconciled.status?.conditions, "Available");
    expect(available?.status).toBe("True");
    expect(available?.observedGeneration).toBe(reconciled.metadata?.generation);
  });

  it("should ignore a resource that no longer exists", async () => {
    const reconciler = new AdmiralReconciler(env.client());
    await expect(reconciler.reconcile({ ...key, name: "missing" }, context())).resolves.toBeUndefined();
  });
});
