/**
 * HTTP/2 for the metrics and webhook servers (Kubebuilder's --enable-http2): off by default (ALPN
 * offers only http/1.1, so an HTTP/2-only client cannot connect), and when on, a real HTTP/2 client
 * (node:http2, nghttp2) gets h2 while an HTTP/1.1 client keeps HTTP/1.1 on the same port.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, constants } from "node:http2";
import { type RequestOptions, request } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConnectionOptions, TLSSocket } from "node:tls";
import { Counter, Registry } from "prom-client";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { defineKind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { webhookManagedBy } from "../builder/index.js";
import { createLogger } from "../log/logger.js";
import { createSecureMetricsServer } from "../metrics/server/server.js";
import { type CustomValidator, createWebhookServer, MAX_ADMISSION_REQUEST_BYTES } from "../webhook/index.js";
import { CertificateAuthority } from "./certs.js";
import type { TLSServer } from "./server.js";

const logger = createLogger({ level: "silent" });
const ca = CertificateAuthority.create("http2-test-ca");
const certDir = mkdtempSync(join(tmpdir(), "kbts-http2-test-"));
const pair = ca.issue({ commonName: "localhost", hosts: ["localhost", "127.0.0.1"], usage: "server" });
writeFileSync(join(certDir, "tls.crt"), pair.cert);
writeFileSync(join(certDir, "tls.key"), pair.key);
afterAll(() => rmSync(certDir, { recursive: true, force: true }));

interface Answer {
  status: number;
  body: string;
  protocol: string | false | null;
}

/** One request with node:http2's client: ALPN offers only h2, as an HTTP/2-only client does. */
function h2(
  port: number,
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const session = connect(`https://localhost:${port}`, { ca: ca.cert });
    session.on("error", reject);
    const stream = session.request({
      [constants.HTTP2_HEADER_METHOD]: init.method ?? "GET",
      [constants.HTTP2_HEADER_PATH]: path,
      ...init.headers,
    });
    let status = 0;
    const chunks: Buffer[] = [];
    stream.on("response", (headers) => {
      status = Number(headers[constants.HTTP2_HEADER_STATUS]);
    });
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("error", reject);
    stream.on("end", () => {
      const protocol = session.alpnProtocol ?? null;
      session.close();
      resolve({ status, body: Buffer.concat(chunks).toString(), protocol });
    });
    stream.end(init.body);
  });
}

/**
 * One request with node:https (HTTP/1.1). `alpn` is what the client offers: an HTTP/1.1 client offers
 * "http/1.1" or nothing; offering "h2" too checks that a server without HTTP/2 never picks it.
 */
function http1(
  port: number,
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
  alpn: string[] = ["http/1.1"],
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // ALPN is a TLS option https.request passes on to tls.connect; its RequestOptions type omits it.
    const options: RequestOptions & ConnectionOptions = {
      host: "127.0.0.1",
      servername: "localhost",
      port,
      path,
      method: init.method ?? "GET",
      headers: init.headers,
      ca: ca.cert,
      ...(alpn.length > 0 ? { ALPNProtocols: alpn } : {}),
      agent: false,
    };
    const req = request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          protocol: `${(res.socket as TLSSocket).alpnProtocol || "no-alpn"} ${res.httpVersion}`,
        }),
      );
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

describe("the secure metrics server", () => {
  const servers: TLSServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });
  async function serve(enableHTTP2?: boolean): Promise<number> {
    const registry = new Registry();
    new Counter({ name: "h2_test_total", help: "a series", registers: [registry] }).inc();
    const server = await createSecureMetricsServer(registry, { logger, certDir, enableHTTP2 });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen({ host: "127.0.0.1", port: 0 }, resolve));
    return (server.address() as AddressInfo).port;
  }

  it("refuses an HTTP/2-only client by default and serves HTTP/1.1", async () => {
    const port = await serve();
    await expect(h2(port, "/metrics")).rejects.toThrow();
    const a = await http1(port, "/metrics", {}, ["h2", "http/1.1"]);
    expect([a.status, a.protocol]).toEqual([200, "http/1.1 1.1"]);
  });

  it("serves /metrics over h2 with enableHTTP2, and HTTP/1.1 to HTTP/1.1 clients on the same port", async () => {
    const port = await serve(true);
    const two = await h2(port, "/metrics");
    expect([two.status, two.protocol]).toEqual([200, "h2"]);
    expect(two.body).toContain("h2_test_total 1");
    const one = await http1(port, "/metrics");
    expect([one.status, one.protocol]).toEqual([200, "http/1.1 1.1"]);
    expect(one.body).toContain("h2_test_total 1");
    const noAlpn = await http1(port, "/metrics", {}, []);
    expect([noAlpn.status, noAlpn.protocol]).toEqual([200, "no-alpn 1.1"]);
  });
});

interface Widget extends KubernetesObject {
  spec?: { size?: number };
}
const Widget = defineKind<Widget>({
  group: "toys.example.com",
  version: "v1",
  kind: "Widget",
  plural: "widgets",
  namespaced: true,
});

function review(size: number): string {
  return JSON.stringify({
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid: `uid-${size}`,
      kind: { group: "toys.example.com", version: "v1", kind: "Widget" },
      resource: { group: "toys.example.com", version: "v1", resource: "widgets" },
      operation: "CREATE",
      userInfo: { username: "tester" },
      object: { apiVersion: "toys.example.com/v1", kind: "Widget", metadata: { name: "w" }, spec: { size } },
    },
  });
}

const validatePath = "/validate-toys-example-com-v1-widget";
const json = { "content-type": "application/json" };

describe("the webhook server", () => {
  // size 99 is held until release(): a review in flight while the server stops.
  let arrived!: () => void;
  const arrival = new Promise<void>((r) => {
    arrived = r;
  });
  let release!: () => void;
  const released = new Promise<void>((r) => {
    release = r;
  });
  const validator: CustomValidator<Widget> = {
    async validateCreate(obj) {
      if (obj.spec?.size === 99) {
        arrived();
        await released;
      }
      if ((obj.spec?.size ?? 0) > 10) throw new Error("size over 10");
    },
    async validateUpdate() {},
    async validateDelete() {},
  };
  async function serve(enableHTTP2?: boolean) {
    const server = createWebhookServer({ port: 0, host: "127.0.0.1", certDir, enableHTTP2, logger });
    webhookManagedBy({ getWebhookServer: () => server }, Widget)
      .withValidator(validator)
      .complete();
    const abort = new AbortController();
    const stopped = server.start(abort.signal);
    await server.started();
    return { port: server.address()?.port ?? 0, stop: () => abort.abort(), stopped };
  }
  const allowed = (a: Answer) => (JSON.parse(a.body) as { response: { allowed: boolean } }).response.allowed;

  it("speaks only HTTP/1.1 by default", async () => {
    const s = await serve();
    try {
      await expect(
        h2(s.port, validatePath, { method: "POST", body: review(1), headers: json }),
      ).rejects.toThrow();
      const a = await http1(s.port, validatePath, { method: "POST", body: review(1), headers: json }, [
        "h2",
        "http/1.1",
      ]);
      expect([a.status, a.protocol, allowed(a)]).toEqual([200, "http/1.1 1.1", true]);
    } finally {
      s.stop();
      await s.stopped;
    }
  });

  it("answers admission reviews over h2 with enableHTTP2, and over HTTP/1.1 on the same port", async () => {
    const s = await serve(true);
    try {
      const ok = await h2(s.port, validatePath, { method: "POST", body: review(1), headers: json });
      expect([ok.status, ok.protocol, allowed(ok)]).toEqual([200, "h2", true]);
      const denied = await h2(s.port, validatePath, { method: "POST", body: review(11), headers: json });
      expect([denied.status, allowed(denied)]).toEqual([200, false]);
      expect(denied.body).toContain("size over 10");
      const one = await http1(s.port, validatePath, { method: "POST", body: review(1), headers: json });
      expect([one.status, one.protocol, allowed(one)]).toEqual([200, "http/1.1 1.1", true]);
      const missing = await h2(s.port, "/nowhere", { method: "POST", body: "{}", headers: json });
      expect(missing.status).toBe(404);
      const huge = await h2(s.port, validatePath, {
        method: "POST",
        body: "x".repeat(MAX_ADMISSION_REQUEST_BYTES + 1),
        headers: json,
      });
      expect(huge.status).toBe(413);
    } finally {
      s.stop();
      await s.stopped;
    }
  });

  it("finishes an h2 review in flight when it stops, then closes the session (GOAWAY)", async () => {
    const s = await serve(true);
    const session = connect(`https://localhost:${s.port}`, { ca: ca.cert });
    const goaway = new Promise<void>((resolve) => session.once("goaway", () => resolve()));
    const stream = session.request({
      [constants.HTTP2_HEADER_METHOD]: "POST",
      [constants.HTTP2_HEADER_PATH]: validatePath,
      ...json,
    });
    const chunks: Buffer[] = [];
    let status = 0;
    stream.on("response", (h) => {
      status = Number(h[constants.HTTP2_HEADER_STATUS]);
    });
    stream.on("data", (c: Buffer) => chunks.push(c));
    const answered = new Promise<void>((resolve, reject) => {
      stream.on("end", () => resolve());
      stream.on("error", reject);
    });
    stream.end(review(99));
    await arrival;
    const started = Date.now();
    s.stop();
    await goaway;
    release();
    await answered;
    expect(status).toBe(200);
    expect(allowed({ status, body: Buffer.concat(chunks).toString(), protocol: "h2" })).toBe(false);
    await s.stopped;
    expect(Date.now() - started).toBeLessThan(4_000);
    session.destroy();
  });
});
