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
import type { Captain } from "../../../api/crew/v1/captain_types.js";
import { CaptainKind } from "../../../api/crew/v1/zz_generated.kinds.js";
import { CaptainReconciler } from "./captain_controller.js";
import { useTestEnvironment } from "./suite_test.js";

describe("Captain Controller", () => {
  const env = useTestEnvironment();
  const key = { name: "test-resource", namespace: "default" };

  const context = () => newReconcileContext({ controllerName: "crew-captain" });

  afterEach(async () => {
    // Cleanup the specific resource instance Captain: clear its finalizers first, or once the
    // reconciler adds one the object stays "being deleted" and the next test cannot create it.
    const client = env.client();
    const existing = await client.get(CaptainKind, key).catch(() => undefined);
    if (!existing) return;
    if (existing.metadata?.finalizers?.length) {
      existing.metadata.finalizers = [];
      await client.update(CaptainKind, existing);
    }
    await client.delete(CaptainKind, key).catch(() => undefined);
  });

  it("should successfully reconcile the resource", async () => {
    const client = env.client();
    const resource: Captain = {
      apiVersion: "crew.testproject.org/v1",
      kind: "Captain",
      metadata: { ...key },
      spec: {},
    };
    await client.create(CaptainKind, resource);

    const reconciler = new CaptainReconciler(client);
    await reconciler.reconcile(key, context());

    const reconciled = await client.get(CaptainKind, key);
    const available = findStatusCondition(reconciled.status?.conditions, "Available");
    expect(available?.status).toBe("True");
    expect(available?.observedGeneration).toBe(reconciled.metadata?.generation);
  });

  it("should ignore a resource that no longer exists", async () => {
    const reconciler = new CaptainReconciler(env.client());
    await expect(reconciler.reconcile({ ...key, name: "missing" }, context())).resolves.toBeUndefined();
  });
});
