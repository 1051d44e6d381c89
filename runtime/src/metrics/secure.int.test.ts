// --metrics-secure against a real kube-apiserver: TokenReview + SubjectAccessReview decide who may scrape.
import https from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClusterRole, ClusterRoleBinding, ConfigMap, ServiceAccount } from "../api/kinds.js";
import { controllerManagedBy } from "../builder/builder.js";
import { createClient } from "../client/client.js";
import { RestClient } from "../client/rest.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { createLogger } from "../log/logger.js";
import { createManager } from "../manager/manager.js";
import type { Manager } from "../manager/types.js";

const logger = createLogger({ level: process.env.KBTS_TEST_LOG_LEVEL ?? "silent" });
const SA = "metrics-scraper";
const USER = `system:serviceaccount:default:${SA}`;

let env: Environment;
let mgr: Manager;
const stop = new AbortController();
let done: Promise<void>;

/** GET /metrics over TLS, trusting the self-signed certificate. */
function scrape(token?: string): Promise<{ status: number; body: string }> {
  const port = mgr.httpAddress("metrics")?.port;
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: "127.0.0.1",
        port,
        path: "/metrics",
        rejectUnauthorized: false,
        agent: false,
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Sum of rest_client_requests_total{method="POST"} as scraped. */
function posts(text: string): number {
  return text
    .split("\n")
    .filter((l) => l.startsWith("rest_client_requests_total{") && l.includes('method="POST"'))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
}

beforeAll(async () => {
  env = await startEnvironment({});
  mgr = createManager({
    kubeConfig: env.kubeConfig,
    logger,
    metricsBindAddress: "127.0.0.1:0",
    healthProbeBindAddress: "0",
    metricsSecureServing: true,
    gracefulShutdownTimeoutMs: 5_000,
  });
  controllerManagedBy(mgr)
    .for(ConfigMap)
    .named("secure-metrics-probe")
    .complete({ async reconcile() {} });
  done = mgr.start(stop.signal);
  done.catch(() => {});
  await mgr.elected();
}, 120_000);

afterAll(async () => {
  stop.abort();
  await done?.catch(() => {});
  await env?.stop();
});

describe("secure metrics (authn/authz filter)", () => {
  it("answers 401 without or with an invalid token, 403 for a ServiceAccount without RBAC, 200 once bound", async () => {
    const none = await scrape();
    expect([none.status, none.body]).toEqual([401, "Unauthorized\n"]);
    const bogus = await scrape("not-a-token");
    expect([bogus.status, bogus.body]).toEqual([401, "Unauthorized\n"]);

    const client = createClient(env.kubeConfig);
    await client.create(ServiceAccount, {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: SA, namespace: "default" },
    });
    const rest = new RestClient(env.kubeConfig);
    const tokenRequest = await rest.request<{ status: { token: string } }>({
      method: "POST",
      path: `/api/v1/namespaces/default/serviceaccounts/${SA}/token`,
      body: {
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenRequest",
        spec: { expirationSeconds: 3600 },
      },
    });
    const token = tokenRequest.status.token;
    expect(token).toMatch(/^ey/);

    const denied = await scrape(token);
    expect([denied.status, denied.body]).toEqual([403, `Authorization denied for user ${USER}\n`]);

    await client.create(ClusterRole, {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: { name: "metrics-reader" },
      rules: [{ nonResourceURLs: ["/metrics"], verbs: ["get"] }],
    });
    await client.create(ClusterRoleBinding, {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: { name: "metrics-reader" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "metrics-reader" },
      subjects: [{ kind: "ServiceAccount", name: SA, namespace: "default" }],
    });
    const boundAt = Date.now();
    // The denial stays cached for 30 s (controller-runtime's deny TTL), then the new binding applies.
    let ok = await scrape(token);
    expect(ok.status).toBe(403);
    while (ok.status !== 200 && Date.now() - boundAt < 45_000) {
      await new Promise((r) => setTimeout(r, 500));
      ok = await scrape(token);
    }
    expect(ok.status).toBe(200);
    expect(Date.now() - boundAt).toBeGreaterThan(25_000);
    expect(ok.body).toContain('controller_runtime_reconcile_total{controller="secure-metrics-probe"');
    expect(ok.body).toContain("# TYPE rest_client_requests_total counter");

    // A fresh token is reviewed through the runtime's REST client: TokenReview + SubjectAccessReview
    // are two more POSTs in rest_client_requests_total (nothing else posts while the test waits).
    const before = posts(ok.body);
    const fresh = await rest.request<{ status: { token: string } }>({
      method: "POST",
      path: `/api/v1/namespaces/default/serviceaccounts/${SA}/token`,
      body: {
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenRequest",
        spec: { expirationSeconds: 3600 },
      },
    });
    const again = await scrape(fresh.status.token);
    expect(again.status).toBe(200);
    // +1 TokenRequest above, +1 TokenReview, +1 SubjectAccessReview (each token's user carries its own
    // credential-id in extra, so the allow cached for the first token does not answer for this one).
    expect(posts(again.body) - before).toBe(3);
    // Scraped again with the same token: both answers come from the cache, nothing is posted.
    const cached = await scrape(fresh.status.token);
    expect(posts(cached.body)).toBe(posts(again.body));
  }, 90_000);
});
