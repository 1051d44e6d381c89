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

import { fileURLToPath } from "node:url";
import { readObjects } from "@kbts/runtime/envtest";
import { describe, expect, it } from "vitest";
import { memcachedConverter } from "../../../api/v1/memcached_conversion.js";

const projectRoot = new URL("../../../", import.meta.url);

// Every spoke's sample must come back unchanged from spoke → hub → spoke: a conversion that drops or
// alters a field fails here, before an API server stores the loss.
describe("Memcached conversion", () => {
  it.each([
    ["v1alpha1", "config/samples/cache_v1alpha1_memcached.yaml"],
    ["v2", "config/samples/cache_v2_memcached.yaml"],
  ])("round-trips the %s sample through the hub (v1)", (_version, sample) => {
    const objects = readObjects(fileURLToPath(new URL(sample, projectRoot)));
    expect(objects.length).toBeGreaterThan(0);
    for (const spoke of objects) {
      const hub = memcachedConverter.convert(spoke, "cache.example.com/v1");
      expect(hub.apiVersion).toBe("cache.example.com/v1");
      expect(memcachedConverter.convert(hub, spoke.apiVersion ?? "")).toEqual(spoke);
    }
  });
});
