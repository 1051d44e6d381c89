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

import {
  DEFAULT_MIG_UTILIZATION_METRIC,
  DEFAULT_UTILIZATION_METRIC,
  type UtilizationOptions,
} from "./prometheus.js";

/** A bad flag value: main() prints the message (naming the flag) and exits 1. */
export class FlagError extends Error {
  constructor(flag: string, value: string, want: string) {
    super(`invalid value ${JSON.stringify(value)} for ${flag}: want ${want}`);
    this.name = "FlagError";
  }
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go-style duration ("90s", "1m30s", "500ms") in milliseconds. */
export function parseDuration(value: string, flag: string): number {
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== value)
    throw new FlagError(flag, value, "a duration such as 60s or 1m30s");
  return parts.reduce((ms, p) => ms + Number(p[1]) * (UNITS[p[2] ?? "s"] ?? 1000), 0);
}

export function parsePositiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new FlagError(flag, value, "a whole number of at least 1");
  return n;
}

/** The controller's utilization settings from the manager's flags; undefined (off) without --prometheus-url. */
export function utilizationFromFlags(flags: {
  "prometheus-url"?: string;
  "utilization-interval"?: string;
  "utilization-window"?: string;
  "idle-threshold"?: string;
  "utilization-metric"?: string;
  "mig-utilization-metric"?: string;
}): (UtilizationOptions & { intervalMs: number }) | undefined {
  const url = flags["prometheus-url"];
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    throw new FlagError("--prometheus-url", url, "an http(s) URL such as http://prometheus.monitoring:9090");
  }
  const window = flags["utilization-window"] ?? "5m";
  if (!/^(\d+(ms|s|m|h|d|w|y))+$/.test(window))
    throw new FlagError("--utilization-window", window, "a PromQL duration such as 5m");
  const threshold = Number(flags["idle-threshold"] ?? "5");
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 100) {
    throw new FlagError("--idle-threshold", flags["idle-threshold"] ?? "", "a percentage between 0 and 100");
  }
  const metric = flags["utilization-metric"] || DEFAULT_UTILIZATION_METRIC;
  const migMetric = flags["mig-utilization-metric"] || DEFAULT_MIG_UTILIZATION_METRIC;
  for (const [flag, name] of [
    ["--utilization-metric", metric],
    ["--mig-utilization-metric", migMetric],
  ] as const) {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name))
      throw new FlagError(flag, name, "a Prometheus metric name such as DCGM_FI_DEV_GPU_UTIL");
  }
  return {
    url,
    metric,
    migMetric,
    window,
    idleThresholdPercent: threshold,
    intervalMs: parseDuration(flags["utilization-interval"] ?? "60s", "--utilization-interval"),
  };
}
