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
import { CertificateReconciler } from "./certificate_controller.js";
import { useTestEnvironment } from "./suite_test.js";

describe("Certificate Controller", () => {
  const env = useTestEnvironment();
  const key = { name: "test-resource", namespace: "default" };

  const context = () => newReconcileContext({ controllerName: "certificate" });

  it("should ignore a Certificate that does not exist", async () => {
    const reconciler = new CertificateReconciler(env.client());
    await expect(reconciler.reconcile({ ...key, name: "missing" }, context())).resolves.toBeUndefined();
  });

  // TODO(user): create a Certificate here (with the fields your reconciler reads) and assert what
  // reconcile does with it. The test environment serves only the CRDs of
  // config/crd/bases: add ./hack/certificates.yaml to crdDirectoryPaths in suite_test.ts to create Certificates.
});
