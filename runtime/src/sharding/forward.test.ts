import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
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
  const dirs: string[] = [];
  const servers: Server[] = [];
  afterEach(() => {
    for (const s of servers.splice(0)) s.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  /** A peer serving `pair`, recording what it received; our files hold `ours` (and ca.crt if given). */
  async function peer(
    pair: { cert: string; key: string },
    ours: { cert: string; key: string; ca?: string },
  ): Promise<{
    address: string;
    files: () => ReturnType<Parameters<typeof httpsPeerPost>[0]>;
    got: string[];
  }> {
    const got: string[] = [];
    const server = createServer({ cert: pair.cert, key: pair.key }, (req, res) => {
      got.push(`${req.url} ${req.headers[FORWARDED_BY_HEADER]}`);
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(review("u-1")));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const dir = mkdtempSync(join(tmpdir(), "kbts-forward-"));
    dirs.push(dir);
    writeFileSync(join(dir, "tls.crt"), ours.cert);
    writeFileSync(join(dir, "tls.key"), ours.key);
    if (ours.ca) writeFileSync(join(dir, "ca.crt"), ours.ca);
    const files = () => ({
      certFile: join(dir, "tls.crt"),
      keyFile: join(dir, "tls.key"),
      caFile: join(dir, "ca.crt"),
      requiresClientCert: false,
    });
    return { address: `127.0.0.1:${(server.address() as AddressInfo).port}`, files, got };
  }

  // The Service's name, not the pod IP the peer is dialled at: what the shared certificate names.
  const shared = selfSignedServingCertificate(["webhook.system.svc"], "shared-ca");

  it("trusts a peer whose certificate ca.crt issued for our DNS name", async () => {
    const rotated = selfSignedServingCertificate(["webhook.system.svc"], "other-ca");
    const p = await peer(shared, { ...rotated, ca: shared.caCert });
    const answer = await httpsPeerPost(p.files, "replica-a")(p.address, "/validate", body, 2_000);
    expect(answer.status).toBe(200);
    expect(p.got).toEqual(["/validate replica-a"]);
  });

  it("without ca.crt, trusts exactly our own certificate", async () => {
    const p = await peer(shared, shared);
    const answer = await httpsPeerPost(p.files, "replica-a")(p.address, "/validate", body, 2_000);
    expect(answer.status).toBe(200);
  });

  it("without ca.crt, sends nothing to a peer with any other certificate", async () => {
    const stranger = selfSignedServingCertificate(["webhook.system.svc"], "shared-ca");
    const p = await peer(stranger, shared);
    await expect(httpsPeerPost(p.files, "replica-a")(p.address, "/validate", body, 2_000)).rejects.toThrow(
      /not this replica's serving certificate/,
    );
    expect(p.got).toEqual([]);
  });

  it("with ca.crt, refuses a peer that CA did not issue", async () => {
    const stranger = selfSignedServingCertificate(["webhook.system.svc"], "stranger-ca");
    const p = await peer(stranger, { ...shared, ca: shared.caCert });
    await expect(httpsPeerPost(p.files, "replica-a")(p.address, "/validate", body, 2_000)).rejects.toThrow(
      "unable to verify the first certificate",
    );
    expect(p.got).toEqual([]);
  });
});
