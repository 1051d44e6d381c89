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

import { describe, expect, it } from "vitest";
import { parseDuration, parsePositiveInt, utilizationFromFlags } from "./options.js";

describe("manager flags for the gpubudget controller", () => {
  it("reads Go durations", () => {
    expect(parseDuration("60s", "--f")).toBe(60_000);
    expect(parseDuration("1m30s", "--f")).toBe(90_000);
    expect(() => parseDuration("soon", "--utilization-interval")).toThrow(
      'invalid value "soon" for --utilization-interval',
    );
  });
  it("wants a positive whole number of workers", () => {
    expect(parsePositiveInt("4", "--max-concurrent-reconciles")).toBe(4);
    expect(() => parsePositiveInt("0", "--max-concurrent-reconciles")).toThrow(/--max-concurrent-reconciles/);
  });
  it("turns utilization off without --prometheus-url", () => {
    expect(utilizationFromFlags({})).toBeUndefined();
  });
  it("reads the utilization settings", () => {
    expect(
      utilizationFromFlags({ "prometheus-url": "http://127.0.0.1:9090", "utilization-interval": "30s" }),
    ).toEqual({
      url: "http://127.0.0.1:9090",
      metric: "DCGM_FI_DEV_GPU_UTIL",
      migMetric: "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
      window: "5m",
      idleThresholdPercent: 5,
      intervalMs: 30_000,
    });
    expect(() => utilizationFromFlags({ "prometheus-url": "prometheus:9090" })).toThrow(/--prometheus-url/);
    expect(() =>
      utilizationFromFlags({ "prometheus-url": "http://p:9090", "mig-utilization-metric": "a-b" }),
    ).toThrow(/--mig-utilization-metric/);
  });
});
