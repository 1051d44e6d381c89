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
 * (0-100 per GPU) labelled with the namespace and pod the GPU is assigned to.
 * Only the HTTP API is used (POST /api/v1/query, form encoded, so long pod lists fit).
 */

export interface UtilizationOptions {
  /** Base URL of the Prometheus server, e.g. http://prometheus.monitoring:9090. */
  url: string;
  /** Metric to read; DCGM exporter's default. */
  metric?: string;
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
  options: Pick<UtilizationOptions, "metric" | "window"> = {},
): string | undefined {
  if (pods.length === 0) return undefined;
  const metric = options.metric ?? "DCGM_FI_DEV_GPU_UTIL";
  const window = options.window ?? "5m";
  if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(metric))
    throw new Error(`invalid metric name ${JSON.stringify(metric)}`);
  if (!/^(\d+(ms|s|m|h|d|w|y))+$/.test(window))
    throw new Error(`invalid PromQL duration ${JSON.stringify(window)}`);
  const podRe = `^(?:${[...pods].sort().map(reEscape).join("|")})$`;
  const selector = `${metric}{namespace=${promString(namespace)},pod=~${promString(podRe)}}`;
  return `avg by (namespace, pod, UUID) (avg_over_time(${selector}[${window}]))`;
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
