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

import { describe, expect, it } from "vitest";
import type { Captain } from "../../../../api/crew/v1/captain_types.js";
import { CaptainCustomDefaulter, CaptainCustomValidator } from "./captain_webhook.js";

describe("Captain Webhook", () => {
  const sample = (): Captain => ({
    apiVersion: "crew.testproject.org/v1",
    kind: "Captain",
    metadata: { name: "test-resource", namespace: "default" },
    spec: {},
  });

  describe("When creating Captain under Defaulting Webhook", () => {
    // TODO(user): Add logic for defaulting webhooks, e.g. expect a field to be set by default().
    it("should keep the object valid", async () => {
      const obj = sample();
      await new CaptainCustomDefaulter().default(obj);
      expect(obj.kind).toBe("Captain");
    });
  });

  describe("When creating or updating Captain under Validating Webhook", () => {
    // TODO(user): Add logic for validating webhooks, e.g. expect validateCreate to reject a bad object.
    it("should admit creation, update and deletion without warnings", async () => {
      const validator = new CaptainCustomValidator();
      await expect(validator.validateCreate(sample())).resolves.toEqual([]);
      await expect(validator.validateUpdate(sample(), sample())).resolves.toEqual([]);
      await expect(validator.validateDelete(sample())).resolves.toEqual([]);
    });
  });
});
