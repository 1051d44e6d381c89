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

import { newReconcileContext } from "@kbts/runtime";
import { describe, expect, it } from "vitest";
import { DeploymentReconciler } from "./deployment_controller.js";
import { useTestEnvironment } from "./suite_test.js";

describe("Deployment Controller", () => {
  const env = useTestEnvironment();
  const key = { name: "test-resource", namespace: "default" };

  const context = () => newReconcileContext({ controllerName: "deployment" });

  it("should ignore a Deployment that does not exist", async () => {
    const reconciler = new DeploymentReconciler(env.client());
    await expect(reconciler.reconcile({ ...key, name: "missing" }, context())).resolves.toBeUndefined();
  });

  // TODO(user): create a Deployment here (with the fields your reconciler reads) and assert what
  // reconcile does with it.
});
