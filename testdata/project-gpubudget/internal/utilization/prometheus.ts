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

/**
 * Reads GPU utilization from Prometheus, where NVIDIA's DCGM exporter publishes DCGM_FI_DEV_GPU_UTIL
 * (0-100 per GPU) labelled with the namespace and pod the GPU is assigned to. A MIG instance (a series
 * with a GPU_I_ID label) does not support that field and reads 0 (NVIDIA/dcgm-exporter #216, #430), so
 * for MIG devices the profiling metric DCGM_FI_PROF_GR_ENGINE_ACTIVE (a 0-1 ratio) is read instead.
 * Only the HTTP API is used (POST /api/v1/query, form encoded, so long pod lists fit).
 */

/** DCGM exporter's per-GPU utilization (percent). */
export const DEFAULT_UTILIZATION_METRIC = "DCGM_FI_DEV_GPU_UTIL";
/** DCGM exporter's graphics engine activity (ratio), which MIG instances report. */
export const DEFAULT_MIG_UTILIZATION_METRIC = "DCGM_FI_PROF_GR_ENGINE_ACTIVE";

export interface UtilizationOptions {
  /** Base URL of the Prometheus server, e.g. http://prometheus.monitoring:9090. */
  url: string;
  /** Metric to read for whole GPUs (0-100); DCGM_FI_DEV_GPU_UTIL by default. */
  metric?: string;
  /** Metric to read for MIG instances (0-1 ratio); DCGM_FI_PROF_GR_ENGINE_ACTIVE by default. */
  migMetric?: string;
  /** Averaging window, a PromQL duration. */
  window?: string;
  /** A GPU whose average utilization is below this percentage is idle. */
  idleThresholdPercent?: number;
  /** Request timeout. */
  timeoutMs?: number;
  /** Injected in tests. */
  fetch?: typeof fetch;
}

export interface Utilization {
  /** Mean over the GPUs that reported, as a whole percentage. */
  averageUtilization: number;
  /** GPUs below the idle threshold. */
  idleGPUs: number;
  /** GPUs that reported. */
  reportingGPUs: number;
}

/** A PromQL string literal. */
function promString(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

/** Escapes RE2 metacharacters (pod names may contain "."). */
function reEscape(value: string): string {
  return value.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&");
}

/**
 * The query for one budget: per GPU (UUID), the average over the window, for the given pods.
 * Returns undefined when there are no pods (no query needed: nothing can be reporting).
 */
export function buildUtilizationQuery(
  namespace: string,
  pods: readonly string[],
  options: Pick<UtilizationOptions, "metric" | "migMetric" | "window"> = {},
): string | undefined {
  if (pods.length === 0) return undefined;
  const metric = options.metric ?? DEFAULT_UTILIZATION_METRIC;
  const migMetric = options.migMetric ?? DEFAULT_MIG_UTILIZATION_METRIC;
  const window = options.window ?? "5m";
  for (const m of [metric, migMetric]) {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(m)) throw new Error(`invalid metric name ${JSON.stringify(m)}`);
  }
  if (!/^(\d+(ms|s|m|h|d|w|y))+$/.test(window))
    throw new Error(`invalid PromQL duration ${JSON.stringify(window)}`);
  const podRe = `^(?:${[...pods].sort().map(reEscape).join("|")})$`;
  const pick = `namespace=${promString(namespace)},pod=~${promString(podRe)}`;
  // One series per device: a whole GPU (no GPU_I_ID) by its utilization, a MIG instance by its
  // graphics engine activity as a percentage.
  const by = "avg by (namespace, pod, UUID, GPU_I_ID)";
  return `${by} (avg_over_time(${metric}{${pick},GPU_I_ID=""}[${window}])) or ${by} (avg_over_time(${migMetric}{${pick},GPU_I_ID!=""}[${window}])) * 100`;
}

interface PromVectorResponse {
  status: "success" | "error";
  data?: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] };
  errorType?: string;
  error?: string;
}

/** Turns an instant-vector answer into utilization figures; undefined when no GPU reported. */
export function parseUtilization(body: unknown, idleThresholdPercent = 5): Utilization | undefined {
  const res = body as PromVectorResponse;
  if (!res || typeof res !== "object" || res.status !== "success") {
    throw new Error(
      `prometheus query failed: ${res?.errorType ?? "bad response"}: ${res?.error ?? JSON.stringify(body)}`,
    );
  }
  if (res.data?.resultType !== "vector")
    throw new Error(`prometheus returned ${res.data?.resultType}, want vector`);
  const values = res.data.result.map((s) => Number(s.value[1])).filter((v) => Number.isFinite(v));
  if (values.length === 0) return undefined;
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    averageUtilization: Math.round(sum / values.length),
    idleGPUs: values.filter((v) => v < idleThresholdPercent).length,
    reportingGPUs: values.length,
  };
}

/** Asks Prometheus for the utilization of a budget's pods. */
export async function queryUtilization(
  options: UtilizationOptions,
  namespace: string,
  pods: readonly string[],
  signal?: AbortSignal,
): Promise<Utilization | undefined> {
  const query = buildUtilizationQuery(namespace, pods, options);
  if (!query) return undefined;
  const doFetch = options.fetch ?? fetch;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 5000);
  const res = await doFetch(
    new URL("api/v1/query", options.url.endsWith("/") ? options.url : `${options.url}/`),
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ query }).toString(),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    },
  );
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`prometheus answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
  }
  return parseUtilization(body, options.idleThresholdPercent);
}
