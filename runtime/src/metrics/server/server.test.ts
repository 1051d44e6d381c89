import { X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConnectionOptions, TLSSocket } from "node:tls";
import { Counter, Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../log/logger.js";
import { CertificateAuthority } from "../../tls/certs.js";
import type { TLSServer } from "../../tls/server.js";
import type { MetricsFilter } from "../filters/filters.js";
import { createSecureMetricsServer } from "./server.js";

const logger = createLogger({ level: "silent" });
const servers: TLSServer[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function registry(): Registry {
  const r = new Registry();
  new Counter({ name: "test_series_total", help: "a series", registers: [r] }).inc();
  return r;
}

async function listen(server: TLSServer): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen({ host: "127.0.0.1", port: 0 }, resolve));
  return (server.address() as AddressInfo).port;
}

interface Answer {
  status: number;
  body: string;
  cert: X509Certificate;
  alpn: string | false | null;
}

function get(port: number, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // ALPN is a TLS option https.request passes on to tls.connect; its RequestOptions type omits it.
    const options: https.RequestOptions & ConnectionOptions = {
      host: "127.0.0.1",
      port,
      path: "/metrics",
      headers,
      rejectUnauthorized: false,
      ALPNProtocols: ["h2", "http/1.1"],
      agent: false,
    };
    const req = https.request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const socket = res.socket as TLSSocket;
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString("utf8"),
          cert: new X509Certificate(socket.getPeerCertificate().raw),
          alpn: socket.alpnProtocol,
        });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

describe("createSecureMetricsServer", () => {
  it("serves metrics over TLS with a self-signed localhost certificate and no HTTP/2", async () => {
    const port = await listen(await createSecureMetricsServer(registry(), { logger }));
    const a = await get(port);
    expect(a.status).toBe(200);
    expect(a.body).toContain("test_series_total 1");
    expect(a.cert.subjectAltName).toContain("DNS:localhost");
    expect(a.cert.subjectAltName).toContain("IP Address:127.0.0.1");
    expect(a.alpn).toBe("http/1.1");
  });

  it("answers with the filter's status and message, and serves only when it allows", async () => {
    const seen: string[] = [];
    const filter: MetricsFilter = async (r) => {
      seen.push(`${r.method} ${r.path} ${r.headers.authorization ?? ""}`);
      if (r.headers.authorization === "Bearer ok") return { allowed: true, user: { username: "u" } };
      if (r.headers.authorization)
        return { allowed: false, code: 403, message: "Authorization denied for user x" };
      return { allowed: false, code: 401, message: "Unauthorized" };
    };
    const port = await listen(await createSecureMetricsServer(registry(), { logger, filter }));
    const none = await get(port);
    expect([none.status, none.body]).toEqual([401, "Unauthorized\n"]);
    const denied = await get(port, { authorization: "Bearer no" });
    expect([denied.status, denied.body]).toEqual([403, "Authorization denied for user x\n"]);
    const ok = await get(port, { authorization: "Bearer ok" });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain("test_series_total");
    expect(seen).toEqual(["GET /metrics ", "GET /metrics Bearer no", "GET /metrics Bearer ok"]);
  });

  it("serves the certificate from certDir and swaps in a new one when the files change", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbts-metrics-certs-"));
    dirs.push(dir);
    const ca = CertificateAuthority.create("test-ca");
    const write = (cn: string) => {
      const pair = ca.issue({ commonName: cn, hosts: ["127.0.0.1"], usage: "server" });
      writeFileSync(join(dir, "serving.crt"), pair.cert);
      writeFileSync(join(dir, "serving.key"), pair.key);
    };
    write("first");
    const server = await createSecureMetricsServer(registry(), {
      logger,
      certDir: dir,
      certName: "serving.crt",
      keyName: "serving.key",
      certPollIntervalMs: 200,
    });
    const port = await listen(server);
    expect((await get(port)).cert.subject).toContain("CN=first");
    write("second");
    const deadline = Date.now() + 5_000;
    let subject = "";
    while (Date.now() < deadline) {
      subject = (await get(port)).cert.subject;
      if (subject.includes("CN=second")) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(subject).toContain("CN=second");
  });

  it("fails with the metrics server and the paths named when certDir has no certificate", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbts-metrics-certs-"));
    dirs.push(dir);
    await expect(createSecureMetricsServer(registry(), { logger, certDir: dir })).rejects.toThrow(
      /metrics server: cannot load serving certificate .*tls\.crt with key .*tls\.key/,
    );
  });
});
