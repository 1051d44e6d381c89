// Sharding across active replicas on a real kube-apiserver (issue 30, item 1), label mechanism, on a
// server without the ShardedListAndWatch gate: replicas run as child processes (testdata/replica.ts)
// so one can be SIGKILLed; each prints a write log of its reconciles.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigMap, Lease, Namespace } from "../api/kinds.js";
import { createClient } from "../client/client.js";
import type { Client } from "../client/types.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { eventually } from "../internal/testdata/eventually.js";
import { nopLogger } from "../log/logger.js";
import { createManager } from "../manager/manager.js";
import { shardLabel } from "./labels.js";
import { HashRing } from "./ring.js";
import { overlaps, Replicas } from "./testdata/harness.js";

const LEASE_MS = 3_000;
const RETRY_MS = 500;
const NAMESPACES = Array.from({ length: 12 }, (_, i) => `team-${i}`);
const LABEL = shardLabel("test");

let env: Environment;
let client: Client;
let replicas: Replicas;

/** Each object's shard label, by "namespace/name". */
async function assignment(): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  for (const ns of NAMESPACES) {
    for (const cm of await client.list(ConfigMap, { namespace: ns, labelSelector: "app=sharded" })) {
      out.set(`${ns}/${cm.metadata?.name}`, cm.metadata?.labels?.[LABEL]);
    }
  }
  return out;
}

/** Waits until every object is labelled for its owner on the ring of `members`. */
async function settled(members: string[], timeoutMs = 20_000): Promise<Map<string, string | undefined>> {
  const ring = new HashRing(members);
  return eventually(
    `objects assigned over ${members.join(", ")}`,
    async () => {
      const now = await assignment();
      for (const [key, owner] of now) if (owner !== ring.owner(key.split("/")[0] as string)) return undefined;
      return now;
    },
    timeoutMs,
    100,
  );
}

function keysOf(a: Map<string, string | undefined>, owner: string): string[] {
  return [...a].filter(([, o]) => o === owner).map(([k]) => k);
}

beforeAll(async () => {
  env = await startEnvironment();
  client = createClient(env.kubeConfig);
  replicas = new Replicas(env.kubeconfigPath, "label");
  await client.create(Namespace, { metadata: { name: "shards" } });
  for (const ns of NAMESPACES) {
    await client.create(Namespace, { metadata: { name: ns } });
    await client.create(ConfigMap, {
      metadata: { name: "config", namespace: ns, labels: { app: "sharded" } },
    });
  }
  // Not sharded (no app=sharded): never labelled.
  await client.create(ConfigMap, { metadata: { name: "other", namespace: "team-0" } });
}, 60_000);

afterAll(async () => {
  await replicas?.stopAll();
  await env?.stop();
});

describe("three sharded replicas", () => {
  it("split the objects: each reconciles only its own, and together all", async () => {
    for (const name of ["shard-a", "shard-b", "shard-c"]) replicas.spawn(name);
    const a = await settled(["shard-a", "shard-b", "shard-c"], 40_000);
    const since = Date.now();
    const owned = new Map(["shard-a", "shard-b", "shard-c"].map((r) => [r, keysOf(a, r)]));
    for (const [r, keys] of owned) {
      expect(keys.length, `${r} owns some objects`).toBeGreaterThan(0);
      await replicas.reconciledSince(r, keys, since);
    }
    // After the assignment settled, each replica reconciled exactly its own objects.
    await eventually(() => {
      const after = replicas.writeLog().filter((w) => w.start >= since);
      for (const [r, keys] of owned) {
        expect(new Set(after.filter((w) => w.replica === r).map((w) => w.key))).toEqual(new Set(keys));
      }
    });
    // Each replica counts the members and the objects it holds; the sharder (shard-a) counts its moves.
    for (const [r, keys] of owned) {
      await eventually(async () => {
        const m = await replicas.shardMetrics(r);
        expect(m.get(`kbts_shard_members{ring="test",shard="${r}"}`)).toBe(3);
        expect(m.get(`kbts_shard_objects{ring="test",shard="${r}"}`)).toBe(keys.length);
      });
    }
    const other = await client.get(ConfigMap, { namespace: "team-0", name: "other" });
    expect(other.metadata?.labels?.[LABEL]).toBeUndefined();
    expect(overlaps(replicas.writeLog())).toEqual([]);
  }, 60_000);

  it("let a joining replica take its share, with no object reconciled by two at once", async () => {
    const before = await assignment();
    const joinedAt = Date.now();
    replicas.spawn("shard-d");
    const after = await settled(["shard-a", "shard-b", "shard-c", "shard-d"], 30_000);
    const moved = [...after].filter(([k, o]) => before.get(k) !== o);
    // Only the joiner's share moved, and it moved to the joiner.
    expect(moved.length).toBeGreaterThan(0);
    expect(new Set(moved.map(([, o]) => o))).toEqual(new Set(["shard-d"]));
    await replicas.reconciledSince("shard-d", keysOf(after, "shard-d"), joinedAt);
    expect(overlaps(replicas.writeLog())).toEqual([]);
    // Every move off a live member went through drain, and the sharder counted each.
    const m = await replicas.shardMetrics("shard-a");
    expect(m.get('kbts_shard_handovers_total{ring="test",reason="drain"}')).toBeGreaterThanOrEqual(
      moved.length,
    );
  }, 60_000);

  it("takes a SIGKILLed replica's objects over within its Lease duration plus one retry", async () => {
    const before = await assignment();
    // A replica that owns objects and is not the sharder (the lowest name, shard-a).
    const victim = ["shard-b", "shard-c", "shard-d"].find((r) => keysOf(before, r).length > 0) as string;
    const orphans = keysOf(before, victim);
    const killedAt = await replicas.kill(victim);
    const survivors = ["shard-a", "shard-b", "shard-c", "shard-d"].filter((r) => r !== victim);
    const after = await settled(survivors, 20_000);
    // Each orphan's first reconcile by its new owner, measured from the kill.
    const takenOver: number[] = [];
    for (const r of survivors) {
      const mine = orphans.filter((k) => after.get(k) === r);
      if (mine.length === 0) continue;
      const first = await replicas.reconciledSince(r, mine, killedAt);
      takenOver.push(...first.values());
    }
    const slowest = Math.max(...takenOver) - killedAt;
    // The sharder watches the Leases, so it judges the Lease expired a duration after the victim's
    // last renewal (sent before the kill) and takes it over then: within the duration. The retry
    // and a second are for the takeover, the relabel reaching the new owner's watch, and its reconcile.
    expect(slowest).toBeLessThan(LEASE_MS + RETRY_MS + 1_000);
    // The dead member's Lease was taken over by the sharder, so it could never renew and write again.
    const lease = await client.get(Lease, { namespace: "shards", name: victim });
    expect(lease.spec?.holderIdentity).toBe("shard-a");
    expect(overlaps(replicas.writeLog())).toEqual([]);
    const m = await replicas.shardMetrics("shard-a");
    expect(m.get('kbts_shard_handovers_total{ring="test",reason="dead"}')).toBe(orphans.length);
  }, 60_000);
});

describe("the sharder itself", () => {
  it("is replaced when SIGKILLed: the next-lowest member takes over its Lease and its objects", async () => {
    const before = await assignment();
    const survivors = [...new Set(before.values())].filter(
      (r): r is string => r !== undefined && r !== "shard-a",
    );
    const orphans = keysOf(before, "shard-a");
    expect(orphans.length, "shard-a owns some objects").toBeGreaterThan(0);
    const killedAt = await replicas.kill("shard-a");
    const after = await settled(survivors, 20_000);
    const takenOver: number[] = [];
    for (const r of survivors) {
      const mine = orphans.filter((k) => after.get(k) === r);
      if (mine.length > 0) takenOver.push(...(await replicas.reconciledSince(r, mine, killedAt)).values());
    }
    // As for any member, and the new sharder starts its watch of every object first.
    expect(Math.max(...takenOver) - killedAt).toBeLessThan(LEASE_MS + RETRY_MS + 1_000);
    const lease = await client.get(Lease, { namespace: "shards", name: "shard-a" });
    expect(lease.spec?.holderIdentity).toBe([...survivors].sort()[0]);
    expect(overlaps(replicas.writeLog())).toEqual([]);
  }, 60_000);
});

describe("the shardSelector mechanism on a server without the ShardedListAndWatch gate", () => {
  it("refuses to start, naming the gate, rather than cache every object", async () => {
    const mgr = createManager({
      kubeConfig: env.kubeConfig,
      logger: nopLogger(),
      healthProbeBindAddress: "0",
      sharding: { ring: "gateless", identity: "shard-x", namespace: "shards", mechanism: "shardSelector" },
    });
    await expect(mgr.start(AbortSignal.timeout(20_000))).rejects.toThrow(
      'sharding.mechanism "shardSelector": the API server ignored the shardSelector of a list (no shardInfo in its answer); it needs kube-apiserver 1.36+ with --feature-gates=ShardedListAndWatch=true, or use mechanism "label"',
    );
  }, 30_000);
});
