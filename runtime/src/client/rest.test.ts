import http from "node:http";
import https from "node:https";
import net from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { afterEach, describe, expect, it } from "vitest";
import { LOOPBACK_HOSTS, selfSignedServingCertificate } from "../tls/selfsigned.js";
import { RestClient } from "./rest.js";

function servingTLS(): https.ServerOptions {
  const cert = selfSignedServingCertificate(LOOPBACK_HOSTS, "rest-test");
  return { key: cert.key, cert: cert.cert };
}

type KubeConfigOfRest = ConstructorParameters<typeof RestClient>[0];

function kubeConfig(server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: "c", server, skipTLSVerify: true }],
    users: [{ name: "u" }],
    contexts: [{ name: "x", cluster: "c", user: "u" }],
    currentContext: "x",
  });
  return kc;
}

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A server answering `answers` in turn (the last one from then on), recording each request's method. */
async function server(answers: { status: number; headers?: Record<string, string> }[], tls = false) {
  const seen: string[] = [];
  const handler: http.RequestListener = (req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push(req.method ?? "");
      const a = answers[Math.min(seen.length - 1, answers.length - 1)] ?? { status: 500 };
      res.writeHead(a.status, { "Content-Type": "application/json", ...a.headers });
      res.end(JSON.stringify({ kind: "Status", code: a.status }));
    });
  };
  const srv = tls ? https.createServer(servingTLS(), handler) : http.createServer(handler);
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  closers.push(() => srv.close());
  return { port: (srv.address() as net.AddressInfo).port, seen };
}

describe("RestRequest.beforeSend", () => {
  it("fails the request unsent when it throws", async () => {
    const { port, seen } = await server([{ status: 200 }]);
    const rest = new RestClient(kubeConfig(`http://127.0.0.1:${port}`));
    const refused = new Error("lease lost");
    await expect(
      rest.request({
        method: "PUT",
        path: "/api/v1/namespaces/a/configmaps/b",
        body: {},
        beforeSend: () => {
          throw refused;
        },
      }),
    ).rejects.toBe(refused);
    // The next request on the same client goes through: the server saw it and only it.
    await rest.request({ method: "GET", path: "/api" });
    expect(seen).toEqual(["GET"]);
  });

  it("runs again before each attempt, so a retry after Retry-After is checked too", async () => {
    const { port, seen } = await server([{ status: 429, headers: { "Retry-After": "0" } }, { status: 200 }]);
    const rest = new RestClient(kubeConfig(`http://127.0.0.1:${port}`));
    let checks = 0;
    await rest.request({
      method: "POST",
      path: "/api/v1/namespaces/a/configmaps",
      body: {},
      beforeSend: () => checks++,
    });
    expect({ checks, seen }).toEqual({ checks: 2, seen: ["POST", "POST"] });

    // The lease goes while the client waits out Retry-After: the retry is not sent.
    const again = await server([{ status: 429, headers: { "Retry-After": "0" } }, { status: 200 }]);
    const retrying = new RestClient(kubeConfig(`http://127.0.0.1:${again.port}`));
    let allowed = 1;
    const refused = new Error("lease lost while waiting out Retry-After");
    await expect(
      retrying.request({
        method: "POST",
        path: "/api/v1/namespaces/a/configmaps",
        body: {},
        beforeSend: () => {
          if (allowed-- <= 0) throw refused;
        },
      }),
    ).rejects.toBe(refused);
    expect(again.seen).toEqual(["POST"]);
  });

  it("runs once a new TLS connection's handshake is done, not when the request is made", async () => {
    const { port } = await server([{ status: 200 }], true);
    // A proxy that holds the connection back for 400 ms: the handshake, and so the send, waits.
    const holdMs = 400;
    const proxy = net.createServer((inbound) => {
      const outbound = net.connect(port, "127.0.0.1");
      inbound.pause();
      setTimeout(() => {
        inbound.pipe(outbound).pipe(inbound);
        inbound.resume();
      }, holdMs);
      inbound.on("error", () => outbound.destroy());
      outbound.on("error", () => inbound.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    closers.push(() => proxy.close());
    const rest = new RestClient(kubeConfig(`https://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`));
    const started = Date.now();
    let checkedAt = 0;
    await rest.request({ method: "PUT", path: "/x", body: {}, beforeSend: () => (checkedAt = Date.now()) });
    expect(checkedAt - started).toBeGreaterThanOrEqual(holdMs - 20);
    rest.close();
  });
});

describe("RestClient.watch", () => {
  it("decodes events whatever the chunks: lines split anywhere, a UTF-8 character split in two, several in one", async () => {
    const events = [
      { type: "ADDED", object: { metadata: { name: "a", annotations: { note: "GPU für Käse 🧀" } } } },
      { type: "MODIFIED", object: { metadata: { name: "b", labels: { big: "x".repeat(40_000) } } } },
      { type: "DELETED", object: { metadata: { name: "c" } } },
    ];
    const bytes = Buffer.from(events.map((e) => `${JSON.stringify(e)}\n`).join(""));
    const cheese = bytes.indexOf(Buffer.from("🧀"));
    // Cuts: inside the 4-byte cheese, then every 7,001 bytes (the big event spans several chunks),
    // and the last two events' boundary falls inside one chunk.
    const cuts = [cheese + 2];
    for (let at = cheese + 2 + 7_001; at < bytes.length; at += 7_001) cuts.push(at);
    const srv = http.createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      let from = 0;
      const next = (i: number) => {
        const to = cuts[i] ?? bytes.length;
        res.write(bytes.subarray(from, to));
        from = to;
        if (to < bytes.length) setTimeout(() => next(i + 1), 2);
        else res.end();
      };
      req.resume();
      next(0);
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    closers.push(() => srv.close());
    const rest = new RestClient(kubeConfig(`http://127.0.0.1:${(srv.address() as net.AddressInfo).port}`));
    const seen: unknown[] = [];
    await rest.watch("/api/v1/configmaps?watch=true", (e) => seen.push(e));
    expect(seen).toEqual(events);
  });
});

describe("RestClient request paths", () => {
  /** A plain HTTP server recording each request's path as it arrived on the request line. */
  async function recording() {
    const seen: string[] = [];
    const srv = http.createServer((req, res) => {
      seen.push(req.url ?? "");
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end("{}");
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    closers.push(() => srv.close());
    return { port: (srv.address() as net.AddressInfo).port, seen };
  }

  it("puts every path under the server URL's own path, as client-go does (a proxy such as Rancher's)", async () => {
    const { port, seen } = await recording();
    const rest = new RestClient(kubeConfig(`http://127.0.0.1:${port}/k8s/clusters/c-1/`));
    await rest.request({ method: "GET", path: "/api/v1/namespaces/a/configmaps?labelSelector=app%3Dx" });
    expect(seen).toEqual(["/k8s/clusters/c-1/api/v1/namespaces/a/configmaps?labelSelector=app%3Dx"]);
  });

  it("percent-encodes what a request line cannot carry, and sends the rest as it is", async () => {
    const { port, seen } = await recording();
    const rest = new RestClient(kubeConfig(`http://127.0.0.1:${port}`));
    await rest.request({ method: "GET", path: "/api/v1/namespaces/a b/configmaps/é" });
    await rest.request({ method: "GET", path: "/apis/x.io/v1/things/a%2Fb?watch=true&fieldSelector=a%3Db" });
    expect(seen).toEqual([
      "/api/v1/namespaces/a%20b/configmaps/%C3%A9",
      "/apis/x.io/v1/things/a%2Fb?watch=true&fieldSelector=a%3Db",
    ]);
  });
});

describe("RestClient connections", () => {
  /** A TLS server that answers a list, then a watch of one event, counting the connections it accepts. */
  async function countingServer(kubeConfigFor: (server: string) => KubeConfigOfRest = kubeConfig) {
    let connections = 0;
    const srv = https.createServer(servingTLS(), (req, res) => {
      req.resume();
      res.writeHead(200, { "Content-Type": "application/json" });
      if (req.url?.includes("watch=true")) {
        res.end(`${JSON.stringify({ type: "ADDED", object: { metadata: { name: "a" } } })}\n`);
      } else {
        res.end(JSON.stringify({ kind: "ConfigMapList", metadata: { resourceVersion: "1" }, items: [] }));
      }
    });
    srv.on("secureConnection", () => connections++);
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    closers.push(() => srv.close());
    const rest = new RestClient(
      kubeConfigFor(`https://127.0.0.1:${(srv.address() as net.AddressInfo).port}`),
    );
    closers.push(() => rest.close());
    return { rest, connections: () => connections };
  }

  it("sends an informer's list on the watch connections, so its watch reuses the list's connection", async () => {
    const { rest, connections } = await countingServer();
    const list = { method: "GET" as const, path: "/api/v1/configmaps", onWatchConnections: true };
    for (let relist = 0; relist < 3; relist++) {
      await rest.request(list);
      await rest.watch("/api/v1/configmaps?watch=true", () => {});
    }
    expect(connections()).toBe(1);
  });

  it("keeps one connection while the credentials stay the same, and opens another when they change", async () => {
    // Credentials as a kubeconfig gives them: read again (new Buffers) for every request.
    let identity = selfSignedServingCertificate(LOOPBACK_HOSTS, "client-1");
    const rotating = (server: string): KubeConfigOfRest => {
      const kc = kubeConfig(server);
      return Object.assign(Object.create(kc) as KubeConfig, {
        async applyToHTTPSOptions(opts: https.RequestOptions) {
          opts.rejectUnauthorized = false;
          opts.cert = Buffer.from(identity.cert);
          opts.key = Buffer.from(identity.key);
        },
      });
    };
    const { rest, connections } = await countingServer(rotating);
    for (let i = 0; i < 3; i++) await rest.request({ method: "GET", path: "/api/v1/configmaps" });
    expect(connections()).toBe(1);
    // A rotated client certificate: the next request must present it, on a connection of its own.
    identity = selfSignedServingCertificate(LOOPBACK_HOSTS, "client-2");
    for (let i = 0; i < 3; i++) await rest.request({ method: "GET", path: "/api/v1/configmaps" });
    expect(connections()).toBe(2);
  });

  it("keeps other requests off the watch connections, so a burst of writes never holds up a watch", async () => {
    const { rest, connections } = await countingServer();
    await rest.request({ method: "GET", path: "/api/v1/configmaps" });
    await rest.watch("/api/v1/configmaps?watch=true", () => {});
    expect(connections()).toBe(2);
  });
});
