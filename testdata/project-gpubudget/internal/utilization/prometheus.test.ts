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

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUtilizationQuery, parseUtilization, queryUtilization } from "./prometheus.js";

describe("buildUtilizationQuery", () => {
  it("selects the budget's pods in its namespace and averages per device over the window, MIG instances by their profile metric", () => {
    const pick = 'namespace="team-a",pod=~"^(?:train-2|train\\\\.1)$"';
    expect(buildUtilizationQuery("team-a", ["train-2", "train.1"], { window: "10m" })).toBe(
      `avg by (namespace, pod, UUID, GPU_I_ID) (avg_over_time(DCGM_FI_DEV_GPU_UTIL{${pick},GPU_I_ID=""}[10m])) or ` +
        `avg by (namespace, pod, UUID, GPU_I_ID) (avg_over_time(DCGM_FI_PROF_GR_ENGINE_ACTIVE{${pick},GPU_I_ID!=""}[10m])) * 100`,
    );
  });
  it("reads the metric names it is given", () => {
    expect(buildUtilizationQuery("ns", ["p"], { metric: "gpu_util", migMetric: "mig_active" })).toMatch(
      /gpu_util\{.*mig_active\{/,
    );
    expect(() => buildUtilizationQuery("ns", ["p"], { metric: "not a name" })).toThrow(/invalid metric name/);
  });
  it("needs no query without pods", () => {
    expect(buildUtilizationQuery("team-a", [])).toBeUndefined();
  });
  it("refuses a window that is not a PromQL duration", () => {
    expect(() => buildUtilizationQuery("team-a", ["p"], { window: "5 minutes" })).toThrow(
      /invalid PromQL duration/,
    );
  });
});

describe("parseUtilization", () => {
  const vector = (...values: string[]) => ({
    status: "success",
    data: {
      resultType: "vector",
      result: values.map((v, i) => ({ metric: { UUID: `GPU-${i}` }, value: [0, v] })),
    },
  });
  it("averages and counts idle GPUs", () => {
    expect(parseUtilization(vector("90", "2", "0", "40"))).toEqual({
      averageUtilization: 33,
      idleGPUs: 2,
      reportingGPUs: 4,
    });
  });
  it("reports nothing when no GPU reported", () => {
    expect(parseUtilization(vector())).toBeUndefined();
  });
  it("surfaces Prometheus errors", () => {
    expect(() => parseUtilization({ status: "error", errorType: "bad_data", error: "parse error" })).toThrow(
      /bad_data: parse error/,
    );
  });
});

describe("queryUtilization against a server that answers like Prometheus", () => {
  let server: Server;
  let url = "";
  const seen: { method?: string; path?: string; query?: string | null }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        const query = new URLSearchParams(body).get("query");
        seen.push({ method: req.method, path: req.url, query });
        res.setHeader("content-type", "application/json");
        if (!query?.includes("DCGM_FI_DEV_GPU_UTIL")) {
          res.statusCode = 400;
          res.end(JSON.stringify({ status: "error", errorType: "bad_data", error: "unknown metric" }));
          return;
        }
        res.end(
          JSON.stringify({
            status: "success",
            data: {
              resultType: "vector",
              result: [
                {
                  metric: { namespace: "team-a", pod: "train", UUID: "GPU-a" },
                  value: [1_700_000_000, "80"],
                },
                {
                  metric: { namespace: "team-a", pod: "train", UUID: "GPU-b" },
                  value: [1_700_000_000, "1.5"],
                },
              ],
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("POSTs the query to /api/v1/query and reports utilization", async () => {
    const u = await queryUtilization({ url }, "team-a", ["train"]);
    expect(u).toEqual({ averageUtilization: 41, idleGPUs: 1, reportingGPUs: 2 });
    expect(seen.at(-1)).toMatchObject({ method: "POST", path: "/api/v1/query" });
    expect(seen.at(-1)?.query).toContain('namespace="team-a"');
  });

  it("explains a refused query", async () => {
    await expect(queryUtilization({ url, metric: "other_metric" }, "team-a", ["train"])).rejects.toThrow(
      /unknown metric/,
    );
  });

  it("fails within the timeout when nothing answers", async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      await expect(
        queryUtilization({ url: `http://127.0.0.1:${port}`, timeoutMs: 200 }, "team-a", ["p"]),
      ).rejects.toThrow();
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
