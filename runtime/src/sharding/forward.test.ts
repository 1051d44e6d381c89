import type { IncomingMessage } from "node:http";
import { createServer, type Server } from "node:https";
import { type AddressInfo, createServer as netServer } from "node:net";
import { createServer as tlsServer } from "node:tls";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "../internal/testdata/eventually.js";
import { webhookForwardedTotal } from "../metrics/sharding.js";
import { selfSignedServingCertificate } from "../tls/selfsigned.js";
import { type AdmissionRequest, allowedResponse } from "../webhook/admission.js";
import {
  FORWARDED_BY_HEADER,
  httpsPeerPost,
  type PeerAnswer,
  type ShardRouting,
  shardOwnerRouter,
  UNAVAILABLE_HEADER,
  unavailableResult,
} from "./forward.js";
import type { ShardTarget } from "./shard.js";

const request: AdmissionRequest = {
  uid: "u-1",
  kind: { group: "", version: "v1", kind: "Pod" },
  resource: { group: "", version: "v1", resource: "pods" },
  namespace: "team-a",
  operation: "CREATE",
  userInfo: {},
};
const body = Buffer.from(
  JSON.stringify({ apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", request }),
);
const review = (uid: string) =>
  Buffer.from(
    JSON.stringify({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      response: { uid, allowed: true },
    }),
  );

function incoming(headers: Record<string, string> = {}): IncomingMessage {
  return { headers, url: "/validate--v1-pod?timeout=10s" } as unknown as IncomingMessage;
}

/** A shard whose answers the test changes as it goes. */
function shard(state: { ready?: boolean; claims?: boolean; target?: ShardTarget }): ShardRouting {
  return {
    identity: "me",
    readyFor: () => state.ready ?? false,
    claims: () => state.claims ?? false,
    targetFor: () => state.target,
  };
}

async function count(webhook: string, result: string): Promise<number> {
  const values = (await webhookForwardedTotal.get()).values;
  return values.find((v) => v.labels.webhook === webhook && v.labels.result === result)?.value ?? 0;
}

describe("the forwarding router", () => {
  it("answers here when this replica is ready for the namespace", async () => {
    const route = shardOwnerRouter(shard({ ready: true }), "/r1", () => Promise.reject(new Error("no")));
    expect(await route(request, body, incoming())).toBeUndefined();
  });

  it("answers a request without a namespace here", async () => {
    const route = shardOwnerRouter(shard({}), "/r2", () => Promise.reject(new Error("no")));
    expect(await route({ ...request, namespace: undefined }, body, incoming())).toBeUndefined();
  });

  it("forwards the same body to the owner's address and path, and returns its answer as is", async () => {
    const posts: { address: string; path: string; body: Buffer }[] = [];
    const route = shardOwnerRouter(
      shard({ target: { member: "owner", webhook: "10.0.0.9:9443" } }),
      "/r3",
      async (address, path, b): Promise<PeerAnswer> => {
        posts.push({ address, path, body: b });
        return { status: 200, body: review("u-1"), unavailable: false };
      },
    );
    const before = await count("/r3", "forwarded");
    expect(await route(request, body, incoming())).toEqual({ forwarded: review("u-1") });
    expect(posts).toEqual([{ address: "10.0.0.9:9443", path: "/validate--v1-pod", body }]);
    expect(await count("/r3", "forwarded")).toBe(before + 1);
  });

  it("never forwards a forwarded request again; a non-owner answers it unavailable at once", async () => {
    let posted = false;
    const route = shardOwnerRouter(
      shard({ target: { member: "owner", webhook: "10.0.0.9:9443" } }),
      "/r4",
      async () => {
        posted = true;
        return { status: 200, body: review("u-1"), unavailable: false };
      },
    );
    const t0 = Date.now();
    const routed = await route(request, body, incoming({ [FORWARDED_BY_HEADER]: "other" }));
    expect(posted).toBe(false);
    expect(Date.now() - t0).toBeLessThan(500);
    expect(routed).toEqual({
      result: unavailableResult(request, "forwarded by other to me, which does not serve it (yet)"),
      headers: { [UNAVAILABLE_HEADER]: "me" },
    });
    expect(await count("/r4", "unavailable")).toBe(1);
  });

  it("answers a forwarded request here once this replica, taking the namespace up, is ready", async () => {
    const state = { claims: true, ready: false };
    const route = shardOwnerRouter(shard(state), "/r5", () => Promise.reject(new Error("no")));
    setTimeout(() => {
      state.ready = true;
    }, 200);
    expect(await route(request, body, incoming({ [FORWARDED_BY_HEADER]: "other" }))).toBeUndefined();
  });

  it("waits for an owner during a handover, then answers with onUnavailable", async () => {
    const reasons: string[] = [];
    const route = shardOwnerRouter(shard({}), "/r6", () => Promise.reject(new Error("no")), {
      waitMs: 300,
      onUnavailable: (req, reason) => {
        reasons.push(`${req.namespace}: ${reason}`);
        return allowedResponse("no budget to check");
      },
    });
    const t0 = Date.now();
    expect(await route(request, body, incoming())).toEqual({
      result: allowedResponse("no budget to check"),
      headers: undefined,
    });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
    expect(reasons).toEqual(["team-a: no replica serves it yet (a handover is in progress)"]);
  });

  it("forwards as soon as an owner appears while it waits", async () => {
    const state: { target?: ShardTarget } = {};
    const route = shardOwnerRouter(shard(state), "/r7", async () => ({
      status: 200,
      body: review("u-1"),
      unavailable: false,
    }));
    setTimeout(() => {
      state.target = { member: "owner", webhook: "10.0.0.9:9443" };
    }, 200);
    expect(await route(request, body, incoming())).toEqual({ forwarded: review("u-1") });
  });

  it("asks again when the member it forwarded to does not serve the namespace (its view was behind)", async () => {
    const state: { target?: ShardTarget } = { target: { member: "old", webhook: "10.0.0.1:9443" } };
    const asked: string[] = [];
    const route = shardOwnerRouter(shard(state), "/r8", async (address) => {
      asked.push(address);
      if (address === "10.0.0.1:9443") {
        state.target = { member: "new", webhook: "10.0.0.2:9443" };
        return { status: 200, body: review("u-1"), unavailable: true };
      }
      return { status: 200, body: review("u-1"), unavailable: false };
    });
    expect(await route(request, body, incoming())).toEqual({ forwarded: review("u-1") });
    expect(asked).toEqual(["10.0.0.1:9443", "10.0.0.2:9443"]);
  });

  it("answers with onUnavailable when the forward fails, or the peer's answer is not for this request", async () => {
    const route = shardOwnerRouter(
      shard({ target: { member: "owner", webhook: "10.0.0.9:9443" } }),
      "/r9",
      () => Promise.reject(new Error("connect ECONNREFUSED")),
    );
    expect(await route(request, body, incoming())).toEqual({
      result: unavailableResult(request, "forwarding to owner (10.0.0.9:9443) failed: connect ECONNREFUSED"),
      headers: undefined,
    });
    expect(await count("/r9", "error")).toBe(1);
    const wrongUid = shardOwnerRouter(
      shard({ target: { member: "owner", webhook: "10.0.0.9:9443" } }),
      "/r10",
      async () => ({ status: 200, body: review("someone-else"), unavailable: false }),
    );
    const routed = await wrongUid(request, body, incoming());
    expect(routed && "result" in routed && routed.result.status?.message).toContain(
      "the answer is not an AdmissionReview for this request",
    );
  });

  it("denies by default, naming the namespace and the reason, and asking to try again", () => {
    expect(unavailableResult(request, "no replica serves it yet")).toEqual({
      allowed: false,
      status: {
        metadata: {},
        code: 403,
        reason: "Forbidden",
        message: 'no replica can answer for namespace "team-a" now: no replica serves it yet; try again',
      },
    });
  });
});

describe("forwarding over HTTPS between replicas sharing a serving certificate", () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const s of servers.splice(0)) {
      s.close();
      s.closeAllConnections();
    }
  });

  interface Peer {
    server: Server;
    address: string;
    port: number;
    /** What it received: "path forwarded-by". */
    got: string[];
    /** TLS connections it accepted. */
    connections(): number;
  }

  /**
   * A peer serving `pair` on `port` (any if 0); `hangUpOn(n)` says whether it drops a connection at its
   * n-th request (1-based) instead of answering, as a peer closing an idle connection does.
   */
  async function serve(
    pair: { cert: string; key: string },
    port = 0,
    hangUpOn: (n: number) => boolean = () => false,
  ): Promise<Peer> {
    const got: string[] = [];
    let connections = 0;
    const requests = new WeakMap<object, number>();
    const server = createServer({ cert: pair.cert, key: pair.key }, (req, res) => {
      const n = (requests.get(req.socket) ?? 0) + 1;
      requests.set(req.socket, n);
      if (hangUpOn(n)) {
        // Read first: closed with unread data, the socket would be reset rather than ended.
        req.resume();
        req.on("end", () => req.socket.destroy());
        return;
      }
      got.push(`${req.url} ${req.headers[FORWARDED_BY_HEADER]}`);
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(review("u-1")));
    });
    server.on("secureConnection", () => {
      connections++;
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    const bound = (server.address() as AddressInfo).port;
    return { server, address: `127.0.0.1:${bound}`, port: bound, got, connections: () => connections };
  }

  /** Our serving certificate (and ca.crt if given), as the webhook server reports it; write() rotates it. */
  function served(ours: { cert: string; key: string; ca?: string }): {
    current: () => ReturnType<Parameters<typeof httpsPeerPost>[0]>;
    write: (next: { cert: string; key: string; ca?: string }) => void;
  } {
    let current!: ReturnType<Parameters<typeof httpsPeerPost>[0]>;
    // As the server's CertWatcher gives it: a new object with new buffers for each pair read.
    const write = (next: { cert: string; key: string; ca?: string }) => {
      current = {
        cert: Buffer.from(next.cert),
        key: Buffer.from(next.key),
        ...(next.ca ? { ca: Buffer.from(next.ca) } : {}),
        requiresClientCert: false,
      };
    };
    write(ours);
    return { current: () => current, write };
  }

  /** A peer serving `pair`, recording what it received; we serve `ours` (and ca.crt if given). */
  async function peer(
    pair: { cert: string; key: string },
    ours: { cert: string; key: string; ca?: string },
  ): Promise<{
    address: string;
    current: () => ReturnType<Parameters<typeof httpsPeerPost>[0]>;
    got: string[];
  }> {
    const { address, got } = await serve(pair);
    return { address, current: served(ours).current, got };
  }

  // The Service's name, not the pod IP the peer is dialled at: what the shared certificate names.
  const shared = selfSignedServingCertificate(["webhook.system.svc"], "shared-ca");

  it("trusts a peer whose certificate ca.crt issued for our DNS name", async () => {
    const rotated = selfSignedServingCertificate(["webhook.system.svc"], "other-ca");
    const p = await peer(shared, { ...rotated, ca: shared.caCert });
    const answer = await httpsPeerPost(p.current, "replica-a")(p.address, "/validate", body, 2_000);
    expect(answer.status).toBe(200);
    expect(p.got).toEqual(["/validate replica-a"]);
  });

  it("without ca.crt, trusts exactly our own certificate", async () => {
    const p = await peer(shared, shared);
    const answer = await httpsPeerPost(p.current, "replica-a")(p.address, "/validate", body, 2_000);
    expect(answer.status).toBe(200);
  });

  it("without ca.crt, sends nothing to a peer with any other certificate", async () => {
    const stranger = selfSignedServingCertificate(["webhook.system.svc"], "shared-ca");
    const p = await peer(stranger, shared);
    await expect(httpsPeerPost(p.current, "replica-a")(p.address, "/validate", body, 2_000)).rejects.toThrow(
      /not this replica's serving certificate/,
    );
    expect(p.got).toEqual([]);
  });

  it("with ca.crt, refuses a peer that CA did not issue", async () => {
    const stranger = selfSignedServingCertificate(["webhook.system.svc"], "stranger-ca");
    const p = await peer(stranger, { ...shared, ca: shared.caCert });
    await expect(httpsPeerPost(p.current, "replica-a")(p.address, "/validate", body, 2_000)).rejects.toThrow(
      "unable to verify the first certificate",
    );
    expect(p.got).toEqual([]);
  });

  it("carries many forwards to a peer over one kept connection", async () => {
    const p = await serve(shared);
    const post = httpsPeerPost(served({ ...shared, ca: shared.caCert }).current, "replica-a");
    for (let i = 0; i < 20; i++) {
      expect((await post(p.address, "/validate", body, 2_000)).status).toBe(200);
    }
    expect(p.got).toHaveLength(20);
    expect(p.connections()).toBe(1);
  });

  it("opens a bounded number of connections to a peer however many forwards are in flight", async () => {
    const p = await serve(shared);
    const post = httpsPeerPost(served(shared).current, "replica-a");
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => post(p.address, "/validate", body, 5_000)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));
    expect(p.connections()).toBeLessThanOrEqual(16);
  });

  it("forwards to a peer restarted on the same port as it did before", async () => {
    const first = await serve(shared);
    const post = httpsPeerPost(served(shared).current, "replica-a");
    const route = shardOwnerRouter(
      shard({ target: { member: "owner", webhook: first.address } }),
      "/h1",
      post,
    );
    expect(await route(request, body, incoming())).toEqual({ forwarded: review("u-1") });
    first.server.close();
    first.server.closeAllConnections();
    const restarted = await serve(shared, first.port);
    expect(await route(request, body, incoming())).toEqual({ forwarded: review("u-1") });
    expect(await route(request, body, incoming())).toEqual({ forwarded: review("u-1") });
    expect(restarted.connections()).toBe(1);
  });

  it("sends a review again on a new connection when a kept one was dropped as it was sent", async () => {
    // Each connection's second request is hung up on, as by a peer closing it idle as it arrives.
    const p = await serve(shared, 0, (n) => n === 2);
    const post = httpsPeerPost(served(shared).current, "replica-a");
    expect((await post(p.address, "/validate", body, 2_000)).status).toBe(200);
    expect((await post(p.address, "/validate", body, 2_000)).status).toBe(200);
    expect(p.got).toEqual(["/validate replica-a", "/validate replica-a"]);
    expect(p.connections()).toBe(2);
  });

  it("sends it again on a new connection, not on another kept one the peer dropped as well", async () => {
    const p = await serve(shared, 0, (n) => n === 2);
    const post = httpsPeerPost(served(shared).current, "replica-a");
    await Promise.all([1, 2, 3].map(() => post(p.address, "/validate", body, 2_000)));
    expect(p.connections()).toBe(3);
    expect((await post(p.address, "/validate", body, 2_000)).status).toBe(200);
    expect(p.got).toHaveLength(4);
    expect(p.connections()).toBe(4);
  });

  it("does not send again a review whose connection was new", async () => {
    const p = await serve(shared, 0, () => true);
    const post = httpsPeerPost(served(shared).current, "replica-a");
    await expect(post(p.address, "/validate", body, 2_000)).rejects.toThrow("socket hang up");
    expect(p.connections()).toBe(1);
  });

  it.each([
    ["with ca.crt, a peer that only the new CA", true],
    ["without ca.crt, a peer with only the new certificate", false],
  ])("after the serving certificate is rotated, trusts %s issued", async (_, withCA) => {
    const next = selfSignedServingCertificate(["webhook.system.svc"], "next-ca");
    const old = await serve(shared);
    const renewed = await serve(next);
    const ours = served(withCA ? { ...shared, ca: shared.caCert } : shared);
    const post = httpsPeerPost(ours.current, "replica-a");
    expect((await post(old.address, "/validate", body, 2_000)).status).toBe(200);
    await expect(post(renewed.address, "/validate", body, 2_000)).rejects.toThrow();
    ours.write(withCA ? { ...next, ca: next.caCert } : next);
    await eventually(async () =>
      expect((await post(renewed.address, "/validate", body, 2_000)).status).toBe(200),
    );
    // Not even over the connection kept from before.
    await expect(post(old.address, "/validate", body, 2_000)).rejects.toThrow(
      withCA ? "unable to verify the first certificate" : /not this replica's serving certificate/,
    );
    expect(old.got).toEqual(["/validate replica-a"]);
  });

  it("without ca.crt, sends nothing to a stranger while it keeps a connection to a replica", async () => {
    const replica = await serve(shared);
    const stranger = await serve(selfSignedServingCertificate(["webhook.system.svc"], "shared-ca"));
    const post = httpsPeerPost(served(shared).current, "replica-a");
    expect((await post(replica.address, "/validate", body, 2_000)).status).toBe(200);
    await expect(post(stranger.address, "/validate", body, 2_000)).rejects.toThrow(
      /not this replica's serving certificate/,
    );
    expect((await post(replica.address, "/validate", body, 2_000)).status).toBe(200);
    expect(stranger.got).toEqual([]);
    expect(replica.connections()).toBe(1);
  });

  it.each([
    ["without ca.crt, to a peer with another certificate", false],
    ["with ca.crt, to a peer that CA did not issue", true],
  ])("sends not one byte %s", async (_, withCA) => {
    const stranger = selfSignedServingCertificate(["webhook.system.svc"], "stranger-ca");
    let received = 0;
    let closed!: Promise<void>;
    const server = tlsServer({ cert: stranger.cert, key: stranger.key }, (socket) => {
      closed = new Promise((resolve) => socket.on("close", () => resolve()));
      socket.on("data", (d: Buffer) => {
        received += d.length;
      });
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const post = httpsPeerPost(
        served(withCA ? { ...shared, ca: shared.caCert } : shared).current,
        "replica-a",
      );
      const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
      await expect(post(address, "/validate", body, 2_000)).rejects.toThrow();
      // Anything sent before the connection was closed arrives before the close.
      await closed;
      expect(received).toBe(0);
    } finally {
      server.close();
    }
  });

  it("gives up on a peer that does not finish its handshake, or does not answer, within the timeout", async () => {
    const silent = netServer((socket) => socket.on("error", () => {}));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const post = httpsPeerPost(served(shared).current, "replica-a");
      const t0 = Date.now();
      await expect(
        post(`127.0.0.1:${(silent.address() as AddressInfo).port}`, "/validate", body, 300),
      ).rejects.toThrow("timed out connecting");
      expect(Date.now() - t0).toBeLessThan(2_000);
      const mute = await serve(shared, 0, () => false);
      mute.server.removeAllListeners("request");
      await expect(post(mute.address, "/validate", body, 300)).rejects.toThrow(
        "timed out waiting for the answer",
      );
    } finally {
      silent.close();
    }
  });
});
