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

import type { Pod } from "@kbts/runtime";
import { describe, expect, it } from "vitest";
import { PodCustomValidator } from "./pod_webhook.js";

describe("Pod Webhook", () => {
  const sample = (): Pod => ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "test-resource", namespace: "default" },
    spec: { containers: [{ name: "app", image: "busybox" }] },
  });

  describe("When creating or updating Pod under Validating Webhook", () => {
    // TODO(user): Add logic for validating webhooks, e.g. expect validateCreate to reject a bad object.
    it("should admit creation, update and deletion without warnings", async () => {
      const validator = new PodCustomValidator();
      await expect(validator.validateCreate(sample())).resolves.toEqual([]);
      await expect(validator.validateUpdate(sample(), sample())).resolves.toEqual([]);
      await expect(validator.validateDelete(sample())).resolves.toEqual([]);
    });
  });
});
