// The manager's secure-metrics options, with no API server (reviews that cannot be made answer 500).
import { mkdtempSync, rmSync } from "node:fs";
import https from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Cache } from "../cache/types.js";
import type { Client } from "../client/types.js";
import { unreachableKubeConfig } from "../internal/testdata/kubeconfig.js";
import { nopLogger } from "../log/logger.js";
import { createManager } from "../manager/manager.js";
import type { Manager, ManagerOptions } from "../manager/types.js";

/** Points at a closed port: every TokenReview fails to connect. */
const syncedCache = {
  start: (signal: AbortSignal) =>
    new Promise<void>((r) => signal.addEventListener("abort", () => r(), { once: true })),
  waitForCacheSync: async () => true,
} as unknown as Cache;

const running: { stop: AbortController; done: Promise<void> }[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    r.stop.abort();
    await r.done.catch(() => {});
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function start(extra: ManagerOptions): { mgr: Manager; done: Promise<void> } {
  const mgr = createManager({
    kubeConfig: unreachableKubeConfig({ token: "t" }),
    logger: nopLogger(),
    metricsBindAddress: "127.0.0.1:0",
    healthProbeBindAddress: "0",
    metricsSecureServing: true,
    newCache: () => syncedCache,
    newClient: () => ({}) as Client,
    gracefulShutdownTimeoutMs: 2_000,
    ...extra,
  });
  const stop = new AbortController();
  const done = mgr.start(stop.signal);
  done.catch(() => {});
  running.push({ stop, done });
  return { mgr, done };
}

async function address(mgr: Manager): Promise<number> {
  const end = Date.now() + 5_000;
  for (;;) {
    const a = mgr.httpAddress("metrics");
    if (a) return a.port;
    if (Date.now() > end) throw new Error("metrics server did not start");
    await new Promise((r) => setTimeout(r, 10));
  }
}

function get(port: number, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(
        {
          host: "127.0.0.1",
          port,
          path: "/metrics",
          rejectUnauthorized: false,
          agent: false,
          headers: token ? { authorization: `Bearer ${token}` } : {},
        },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => {
            body += c;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      )
      .on("error", reject);
  });
}

describe("manager with metricsSecureServing", () => {
  it("filters with TokenReview/SubjectAccessReview by default: 401 without a token, 500 when the review fails", async () => {
    const { mgr } = start({});
    const port = await address(mgr);
    expect(await get(port)).toEqual({ status: 401, body: "Unauthorized\n" });
    expect(await get(port, "some-token")).toEqual({ status: 500, body: "Authentication failed\n" });
  });

  it('serves anyone over HTTPS with metricsFilter "none"', async () => {
    const { mgr } = start({ metricsFilter: "none" });
    const port = await address(mgr);
    const res = await get(port);
    expect(res.status).toBe(200);
    expect(res.body).toContain("# TYPE rest_client_requests_total counter");
  });

  it("fails to start, naming the files, when metricsCertDir holds no certificate", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbts-metrics-"));
    dirs.push(dir);
    const { done } = start({ metricsCertDir: dir, metricsCertName: "m.crt", metricsKeyName: "m.key" });
    await expect(done).rejects.toThrow(
      `metrics server: cannot load serving certificate ${join(dir, "m.crt")} with key ${join(dir, "m.key")}`,
    );
  });

  it("rejects an unknown metricsFilter when the manager is created", () => {
    expect(() => start({ metricsFilter: "rbac" as "none" })).toThrow(
      'metricsFilter "rbac" is unknown; use "authn-authz" or "none"',
    );
  });
});
