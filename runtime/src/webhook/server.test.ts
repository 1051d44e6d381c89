import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineKind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { webhookManagedBy } from "../builder/index.js";
import { eventually } from "../internal/testdata/eventually.js";
import { metricsRegistry } from "../metrics/registry.js";
import { CertificateAuthority } from "../tls/certs.js";
import {
  AdmissionDenied,
  type AdmissionRequest,
  type AdmissionResponse,
  type CustomDefaulter,
  type CustomValidator,
  createWebhookServer,
  type HttpsWebhookServer,
  MAX_ADMISSION_REQUEST_BYTES,
} from "./index.js";

interface Widget extends KubernetesObject {
  spec?: { size?: number; color?: string; tags?: string[] };
}
const Widget = defineKind<Widget>({
  group: "toys.example.com",
  version: "v1",
  kind: "Widget",
  plural: "widgets",
  namespaced: true,
});

const ca = CertificateAuthority.create("webhook-test-ca");
const issue = () => ca.issue({ commonName: "localhost", hosts: ["localhost", "127.0.0.1"], usage: "server" });

interface Reply {
  status: number;
  body: string;
  peerCert?: string;
}

function post(
  port: number,
  path: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
  clientCert?: { cert: string; key: string },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        ca: ca.cert,
        servername: "localhost",
        agent: false,
        ...clientCert,
        headers: { "content-type": "application/json", ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        const peer =
          res.socket && "getPeerCertificate" in res.socket
            ? (res.socket as import("node:tls").TLSSocket).getPeerCertificate()
            : undefined;
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            peerCert: peer?.fingerprint256,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function review(request: Partial<AdmissionRequest<Widget>>, apiVersion = "admission.k8s.io/v1"): string {
  return JSON.stringify({
    apiVersion,
    kind: "AdmissionReview",
    request: {
      uid: "uid-1",
      kind: { group: "toys.example.com", version: "v1", kind: "Widget" },
      resource: { group: "toys.example.com", version: "v1", resource: "widgets" },
      operation: "CREATE",
      userInfo: { username: "tester" },
      ...request,
    },
  });
}

function widget(spec: Widget["spec"]): Widget {
  return {
    apiVersion: "toys.example.com/v1",
    kind: "Widget",
    metadata: { name: "w", namespace: "ns" },
    spec,
  };
}

function responseOf(reply: Reply): AdmissionResponse {
  const parsed = JSON.parse(reply.body) as { response: AdmissionResponse };
  return parsed.response;
}

describe("webhook server", () => {
  let dir: string;
  let server: HttpsWebhookServer;
  let port: number;
  const abort = new AbortController();
  let stopped: Promise<void>;
  const seen: string[] = [];

  const validator: CustomValidator<Widget> = {
    async validateCreate(obj) {
      seen.push(`create ${obj.spec?.size}`);
      if ((obj.spec?.size ?? 0) < 0) throw new Error("spec.size must not be negative");
      if ((obj.spec?.size ?? 0) > 100)
        throw new AdmissionDenied("too big", { code: 422, reason: "Invalid", warnings: ["w1"] });
      return obj.spec?.color ? undefined : ["no color set"];
    },
    async validateUpdate(oldObj, obj) {
      seen.push(`update ${oldObj.spec?.size}->${obj.spec?.size}`);
      if ((obj.spec?.size ?? 0) < (oldObj.spec?.size ?? 0)) throw new Error("size may not shrink");
    },
    async validateDelete(obj) {
      seen.push(`delete ${obj.metadata?.name}`);
    },
  };
  const defaulter: CustomDefaulter<Widget> = {
    default(obj) {
      obj.spec ??= {};
      obj.spec.color ??= "blue";
      obj.metadata ??= {};
      obj.metadata.annotations = { ...obj.metadata.annotations, "example.com/defaulted~": "true" };
      if (obj.spec.tags) obj.spec.tags = [...obj.spec.tags, "defaulted"];
      if (obj.spec.size === 13) throw new AdmissionDenied("unlucky size");
    },
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "kbts-webhook-test-"));
    const pair = issue();
    writeFileSync(join(dir, "tls.crt"), pair.cert);
    writeFileSync(join(dir, "tls.key"), pair.key);
    server = createWebhookServer({ port: 0, host: "127.0.0.1", certDir: dir, certPollIntervalMs: 200 });
    const paths = webhookManagedBy({ getWebhookServer: () => server }, Widget)
      .withValidator(validator)
      .withDefaulter(defaulter)
      .complete();
    expect(paths).toEqual({
      validatePath: "/validate-toys-example-com-v1-widget",
      mutatePath: "/mutate-toys-example-com-v1-widget",
    });
    stopped = server.start(abort.signal);
    await server.started();
    port = server.address()?.port ?? 0;
  });

  afterAll(async () => {
    abort.abort();
    await stopped;
    rmSync(dir, { recursive: true, force: true });
  });

  it("allows a valid create, echoing uid and apiVersion, with the validator's warnings", async () => {
    const reply = await post(
      port,
      "/validate-toys-example-com-v1-widget",
      review({ uid: "abc", object: widget({ size: 1 }) }),
    );
    expect(reply.status).toBe(200);
    const parsed = JSON.parse(reply.body);
    expect(parsed.apiVersion).toBe("admission.k8s.io/v1");
    expect(parsed.kind).toBe("AdmissionReview");
    expect(parsed.response).toEqual({
      uid: "abc",
      allowed: true,
      status: { metadata: {}, code: 200 },
      warnings: ["no color set"],
    });
  });

  it("answers a v1beta1 review in v1beta1", async () => {
    const reply = await post(
      port,
      "/validate-toys-example-com-v1-widget",
      review({ object: widget({ size: 1, color: "red" }) }, "admission.k8s.io/v1beta1"),
    );
    expect(JSON.parse(reply.body).apiVersion).toBe("admission.k8s.io/v1beta1");
    expect(responseOf(reply).allowed).toBe(true);
  });

  it("denies with 403 Forbidden and the error's message when the validator throws", async () => {
    const reply = await post(
      port,
      "/validate-toys-example-com-v1-widget",
      review({ object: widget({ size: -1 }) }),
    );
    expect(reply.status).toBe(200);
    expect(responseOf(reply)).toEqual({
      uid: "uid-1",
      allowed: false,
      status: { metadata: {}, code: 403, reason: "Forbidden", message: "spec.size must not be negative" },
    });
  });

  it("keeps AdmissionDenied's code, reason and warnings", async () => {
    const reply = await post(
      port,
      "/validate-toys-example-com-v1-widget",
      review({ object: widget({ size: 101 }) }),
    );
    expect(responseOf(reply)).toMatchObject({
      allowed: false,
      status: { code: 422, reason: "Invalid", message: "too big" },
      warnings: ["w1"],
    });
  });

  it("passes old and new objects on update and the old object on delete", async () => {
    seen.length = 0;
    const upd = await post(
      port,
      "/validate-toys-example-com-v1-widget",
      review({ operation: "UPDATE", object: widget({ size: 2 }), oldObject: widget({ size: 5 }) }),
    );
    expect(responseOf(upd)).toMatchObject({
      allowed: false,
      status: { code: 403, message: "size may not shrink" },
    });
    const del = await post(
      port,
      "/validate-toys-example-com-v1-widget",
      review({ operation: "DELETE", oldObject: widget({}) }),
    );
    expect(responseOf(del).allowed).toBe(true);
    expect(seen).toEqual(["update 5->2", "delete w"]);
  });

  it("answers 400 inside the review when the object is missing or the operation unknown", async () => {
    const noObject = await post(port, "/validate-toys-example-com-v1-widget", review({}));
    expect(responseOf(noObject)).toMatchObject({ uid: "uid-1", allowed: false, status: { code: 400 } });
    const bad = await post(
      port,
      "/validate-toys-example-com-v1-widget",
      review({ operation: "FROB" as "CREATE", object: widget({}) }),
    );
    expect(responseOf(bad).status?.code).toBe(400);
  });

  it("returns the defaulter's changes as a base64 JSON patch", async () => {
    const original = widget({ size: 3, tags: ["a"] });
    const reply = await post(port, "/mutate-toys-example-com-v1-widget", review({ object: original }));
    const res = responseOf(reply);
    expect(res.allowed).toBe(true);
    expect(res.patchType).toBe("JSONPatch");
    const ops = JSON.parse(Buffer.from(res.patch ?? "", "base64").toString());
    expect(ops).toHaveLength(3);
    expect(ops).toEqual(
      expect.arrayContaining([
        { op: "add", path: "/spec/color", value: "blue" },
        { op: "replace", path: "/spec/tags", value: ["a", "defaulted"] },
        { op: "add", path: "/metadata/annotations", value: { "example.com/defaulted~": "true" } },
      ]),
    );
  });

  it("sends no patch when the defaulter changes nothing, and lets DELETE through untouched", async () => {
    const same = await post(
      port,
      "/mutate-toys-example-com-v1-widget",
      review({
        object: {
          ...widget({ color: "red" }),
          metadata: { name: "w", annotations: { "example.com/defaulted~": "true" } },
        },
      }),
    );
    expect(responseOf(same)).toEqual({ uid: "uid-1", allowed: true, status: { metadata: {}, code: 200 } });
    const del = await post(
      port,
      "/mutate-toys-example-com-v1-widget",
      review({ operation: "DELETE", oldObject: widget({}) }),
    );
    expect(responseOf(del).patch).toBeUndefined();
  });

  it("denies when the defaulter throws", async () => {
    const reply = await post(
      port,
      "/mutate-toys-example-com-v1-widget",
      review({ object: widget({ size: 13 }) }),
    );
    expect(responseOf(reply)).toMatchObject({
      allowed: false,
      status: { code: 403, reason: "Forbidden", message: "unlucky size" },
    });
  });

  it("rejects malformed requests with HTTP 400 and an explanation", async () => {
    const empty = await post(port, "/validate-toys-example-com-v1-widget", "");
    expect(empty.status).toBe(400);
    expect(responseOf(empty).status?.message).toBe("request body is empty");

    const wrongType = await post(
      port,
      "/validate-toys-example-com-v1-widget",
      review({ object: widget({}) }),
      {
        "content-type": "text/plain",
      },
    );
    expect(wrongType.status).toBe(400);
    expect(responseOf(wrongType).status?.message).toContain("expected application/json");

    const notJson = await post(port, "/validate-toys-example-com-v1-widget", "{nope");
    expect(notJson.status).toBe(400);
    const notReview = await post(
      port,
      "/validate-toys-example-com-v1-widget",
      JSON.stringify({ kind: "Pod" }),
    );
    expect(notReview.status).toBe(400);
  });

  it("rejects a body over 7 MiB with 413", async () => {
    const big = Buffer.alloc(MAX_ADMISSION_REQUEST_BYTES + 1, 0x20);
    const reply = await post(port, "/validate-toys-example-com-v1-widget", big);
    expect(reply.status).toBe(413);
    expect(responseOf(reply).status).toMatchObject({
      code: 413,
      message: expect.stringContaining("too large"),
    });
  });

  it("answers 404 for an unregistered path", async () => {
    expect((await post(port, "/validate-nothing", "{}")).status).toBe(404);
  });

  it("counts requests by webhook path and HTTP code", async () => {
    const text = await metricsRegistry.metrics();
    expect(text).toMatch(
      /controller_runtime_webhook_requests_total\{webhook="\/validate-toys-example-com-v1-widget",code="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /controller_runtime_webhook_requests_total\{webhook="\/validate-toys-example-com-v1-widget",code="413"\} 1/,
    );
    expect(text).toContain(
      'controller_runtime_webhook_latency_seconds_bucket{le="1e-8",webhook="/mutate-toys-example-com-v1-widget"}',
    );
    expect(text).toContain(
      'controller_runtime_webhook_requests_in_flight{webhook="/mutate-toys-example-com-v1-widget"} 0',
    );
  });

  it("serves a new certificate on the next handshake after the files change", async () => {
    const before = await post(
      port,
      "/validate-toys-example-com-v1-widget",
      review({ object: widget({ color: "x" }) }),
    );
    const next = issue();
    const nextFingerprint = new X509Certificate(next.cert).fingerprint256;
    expect(before.peerCert).not.toBe(nextFingerprint);
    writeFileSync(join(dir, "tls.key"), next.key);
    writeFileSync(join(dir, "tls.crt"), next.cert);
    const deadline = Date.now() + 10_000;
    let seenFingerprint = before.peerCert;
    while (Date.now() < deadline && seenFingerprint !== nextFingerprint) {
      await new Promise((r) => setTimeout(r, 50));
      seenFingerprint = (
        await post(port, "/validate-toys-example-com-v1-widget", review({ object: widget({ color: "x" }) }))
      ).peerCert;
    }
    expect(seenFingerprint).toBe(nextFingerprint);
  });

  it("shares the certificate it serves, with certDir/ca.crt, and a new one when either file changes", async () => {
    const first = server.servingCertificate?.();
    expect(first?.cert.equals(readFileSync(join(dir, "tls.crt")))).toBe(true);
    expect(first?.ca).toBeUndefined();
    expect(first?.requiresClientCert).toBe(false);
    expect(server.servingCertificate?.()).toBe(first); // one object until something changes
    // The Secret gains ca.crt (cert-manager, the cert rotator): forwarding replicas then trust that CA.
    const ca = issue().cert;
    writeFileSync(join(dir, "ca.crt"), ca);
    await eventually(() => expect(server.servingCertificate?.()?.ca?.toString()).toBe(ca), 10_000);
    const withCA = server.servingCertificate?.();
    expect(withCA).not.toBe(first);
    const next = issue();
    writeFileSync(join(dir, "tls.key"), next.key);
    writeFileSync(join(dir, "tls.crt"), next.cert);
    await eventually(() => expect(server.servingCertificate?.()?.cert.toString()).toBe(next.cert), 10_000);
    expect(server.servingCertificate?.()?.ca?.toString()).toBe(ca);
    rmSync(join(dir, "ca.crt"));
    await eventually(() => expect(server.servingCertificate?.()?.ca).toBeUndefined(), 10_000);
  });
});

describe("webhook server start", () => {
  it("fails with a clear error when the certificate is missing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbts-webhook-empty-"));
    const server = createWebhookServer({ port: 0, host: "127.0.0.1", certDir: dir });
    await expect(server.start(new AbortController().signal)).rejects.toThrow(
      /cannot load serving certificate .*tls\.crt/,
    );
    await expect(server.started()).rejects.toThrow();
    rmSync(dir, { recursive: true, force: true });
  });

  it("rejects invalid and duplicate paths", () => {
    const server = createWebhookServer({ port: 0 });
    expect(() => server.register("no-slash", () => {})).toThrow(/invalid/);
    server.register("/x", () => {});
    expect(() => server.register("/x", () => {})).toThrow(/already registered/);
    expect(() => webhookManagedBy({ getWebhookServer: () => server }, Widget).complete()).toThrow(
      /withValidator/,
    );
  });

  it("derives controller-runtime's paths, with an empty group for core kinds", async () => {
    const { validatingWebhookPath, mutatingWebhookPath } = await import("../builder/index.js");
    const Pod = defineKind({ group: "", version: "v1", kind: "Pod", plural: "pods", namespaced: true });
    expect(validatingWebhookPath(Pod)).toBe("/validate--v1-pod");
    expect(mutatingWebhookPath(Widget)).toBe("/mutate-toys-example-com-v1-widget");
  });
});

describe("jsonPatchDiff", () => {
  it("escapes ~ and / in keys and removes dropped members", async () => {
    const { jsonPatchDiff } = await import("./index.js");
    expect(jsonPatchDiff({ a: { "x/y~": 1, gone: true } }, { a: { "x/y~": 2 } })).toEqual([
      { op: "remove", path: "/a/gone" },
      { op: "replace", path: "/a/x~1y~0", value: 2 },
    ]);
  });
});

describe("admission handling edge cases", () => {
  it("answers 500 with the uid and counts a panic when a raw admission handler throws", async () => {
    const { serveAdmission } = await import("./index.js");
    const dir = mkdtempSync(join(tmpdir(), "kbts-webhook-panic-"));
    const pair = issue();
    writeFileSync(join(dir, "tls.crt"), pair.cert);
    writeFileSync(join(dir, "tls.key"), pair.key);
    const server = createWebhookServer({ port: 0, host: "127.0.0.1", certDir: dir });
    server.register(
      "/explode",
      serveAdmission("/explode", () => {
        throw new TypeError("cannot read x of undefined");
      }),
    );
    const abort = new AbortController();
    const stopped = server.start(abort.signal);
    await server.started();
    const panicsBefore =
      (await metricsRegistry.getSingleMetric("controller_runtime_webhook_panics_total")?.get())?.values[0]
        ?.value ?? 0;
    const reply = await post(
      server.address()?.port ?? 0,
      "/explode",
      review({ uid: "boom", object: widget({}) }),
    );
    abort.abort();
    await stopped;
    rmSync(dir, { recursive: true, force: true });
    expect(reply.status).toBe(200);
    expect(responseOf(reply)).toEqual({
      uid: "boom",
      allowed: false,
      status: { metadata: {}, code: 500, message: "panic: cannot read x of undefined [recovered]" },
    });
    const panicsAfter = (
      await metricsRegistry.getSingleMetric("controller_runtime_webhook_panics_total")?.get()
    )?.values[0]?.value;
    expect(panicsAfter).toBe(panicsBefore + 1);
  });

  it("picks up a certificate rotated the way Kubernetes updates a Secret volume (..data symlink swap)", async () => {
    const { mkdirSync, renameSync, symlinkSync } = await import("node:fs");
    const dir = mkdtempSync(join(tmpdir(), "kbts-webhook-symlink-"));
    const writeVersion = (name: string, p: { cert: string; key: string }) => {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, "tls.crt"), p.cert);
      writeFileSync(join(dir, name, "tls.key"), p.key);
      symlinkSync(name, join(dir, "..data_tmp"));
      renameSync(join(dir, "..data_tmp"), join(dir, "..data"));
    };
    writeVersion("v1", issue());
    symlinkSync("..data/tls.crt", join(dir, "tls.crt"));
    symlinkSync("..data/tls.key", join(dir, "tls.key"));
    const server = createWebhookServer({
      port: 0,
      host: "127.0.0.1",
      certDir: dir,
      certPollIntervalMs: 60_000,
    });
    server.register("/x", () => {});
    const abort = new AbortController();
    const stopped = server.start(abort.signal);
    await server.started();
    const port = server.address()?.port ?? 0;
    const next = issue();
    const want = new X509Certificate(next.cert).fingerprint256;
    writeVersion("v2", next);
    const deadline = Date.now() + 10_000;
    let got: string | undefined;
    while (Date.now() < deadline && got !== want) {
      await new Promise((r) => setTimeout(r, 50));
      got = (await post(port, "/nowhere", "{}")).peerCert;
    }
    abort.abort();
    await stopped;
    rmSync(dir, { recursive: true, force: true });
    expect(got).toBe(want);
  });
});

describe("client certificates", () => {
  it("requires a client certificate signed by clientCAName when it is set", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbts-webhook-mtls-"));
    const pair = issue();
    const clientCA = CertificateAuthority.create("client-ca");
    writeFileSync(join(dir, "tls.crt"), pair.cert);
    writeFileSync(join(dir, "tls.key"), pair.key);
    writeFileSync(join(dir, "client-ca.crt"), clientCA.cert);
    const server = createWebhookServer({
      port: 0,
      host: "127.0.0.1",
      certDir: dir,
      clientCAName: "client-ca.crt",
    });
    server.register("/ok", (_req, res) => void res.end("ok"));
    const abort = new AbortController();
    const stopped = server.start(abort.signal);
    await server.started();
    const port = server.address()?.port ?? 0;
    try {
      const withCert = await post(
        port,
        "/ok",
        "",
        {},
        clientCA.issue({ commonName: "kube-apiserver", usage: "client" }),
      );
      expect(withCert.body).toBe("ok");
      const otherCA = CertificateAuthority.create("other");
      await expect(
        post(port, "/ok", "", {}, otherCA.issue({ commonName: "x", usage: "client" })),
      ).rejects.toThrow();
      await expect(post(port, "/ok", "")).rejects.toThrow();
    } finally {
      abort.abort();
      await stopped;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("certificate polling", () => {
  it("keeps the 10 s default poll when pollIntervalMs is passed as undefined", async () => {
    const { CertWatcher } = await import("../tls/certwatcher.js");
    const { certReadsTotal } = await import("../metrics/certwatcher.js");
    const dir = mkdtempSync(join(tmpdir(), "kbts-webhook-poll-"));
    const pair = issue();
    writeFileSync(join(dir, "tls.crt"), pair.cert);
    writeFileSync(join(dir, "tls.key"), pair.key);
    const watcher = new CertWatcher({
      certDir: dir,
      certName: "tls.crt",
      keyName: "tls.key",
      logger: { info() {}, warn() {}, error() {}, debug() {}, child: () => undefined as never },
      onChange: () => {},
      pollIntervalMs: undefined,
      debounceMs: 0,
    });
    await watcher.start();
    const reads = async () => (await certReadsTotal.get()).values[0]?.value ?? 0;
    const before = await reads();
    await new Promise((r) => setTimeout(r, 300));
    const after = await reads();
    watcher.stop();
    rmSync(dir, { recursive: true, force: true });
    expect(after - before).toBe(0);
  });
});
