// Sharding across active replicas on a real kube-apiserver (issue 30, item 1): replicas run as child
// processes (testdata/replica.ts) so one can be SIGKILLed; each prints a write log of its reconciles.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigMap, Lease, Namespace } from "../api/kinds.js";
import { createClient } from "../client/client.js";
import type { Client } from "../client/types.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { eventually } from "../internal/testdata/eventually.js";
import { shardLabel } from "./labels.js";
import { HashRing } from "./ring.js";

const LEASE_MS = 3_000;
const RETRY_MS = 500;
const NAMESPACES = Array.from({ length: 12 }, (_, i) => `team-${i}`);
const LABEL = shardLabel("test");

interface Replica {
  name: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  killedAt?: number;
}

interface Window {
  replica: string;
  key: string;
  start: number;
  end: number;
}

let env: Environment;
let client: Client;
const replicas = new Map<string, Replica>();

function spawnReplica(name: string): Replica {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(import.meta.dirname, "testdata", "replica.ts"), env.kubeconfigPath, name],
    { cwd: join(import.meta.dirname, "..", "..", ".."), stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const replica = { name, child, output: () => out, exited };
  replicas.set(name, replica);
  return replica;
}

/** Every replica's reconciles as windows; one cut short by SIGKILL ends when the replica died. */
function writeLog(): Window[] {
  const windows: Window[] = [];
  for (const r of replicas.values()) {
    const open = new Map<string, number>();
    for (const line of r.output().split("\n")) {
      if (!line.startsWith('{"ev"')) continue;
      const e = JSON.parse(line) as { ev: string; key: string; t: number };
      if (e.ev === "start") open.set(e.key, e.t);
      if (e.ev === "end") {
        windows.push({ replica: r.name, key: e.key, start: open.get(e.key) ?? e.t, end: e.t });
        open.delete(e.key);
      }
    }
    for (const [key, start] of open)
      windows.push({ replica: r.name, key, start, end: r.killedAt ?? Date.now() });
  }
  return windows;
}

/** Pairs of windows of one object, from two replicas, that overlap in time. */
function overlaps(windows: Window[]): string[] {
  const out: string[] = [];
  const byKey = new Map<string, Window[]>();
  for (const w of windows) byKey.set(w.key, [...(byKey.get(w.key) ?? []), w]);
  for (const [key, ws] of byKey) {
    for (const a of ws) {
      for (const b of ws) {
        if (a.replica < b.replica && a.start < b.end && b.start < a.end) {
          out.push(`${key}: ${a.replica} [${a.start}, ${a.end}] and ${b.replica} [${b.start}, ${b.end}]`);
        }
      }
    }
  }
  return out;
}

/** A replica's kbts_shard_* series, by their name and labels as printed. */
async function shardMetrics(replica: string): Promise<Map<string, number>> {
  const line = replicas
    .get(replica)
    ?.output()
    .split("\n")
    .find((l) => l.startsWith('{"ev":"metrics"'));
  if (!line) throw new Error(`${replica} has not said its metrics port yet`);
  const { port } = JSON.parse(line) as { port: number };
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const out = new Map<string, number>();
  for (const l of text.split("\n")) {
    if (!l.startsWith("kbts_shard_")) continue;
    const at = l.lastIndexOf(" ");
    out.set(l.slice(0, at), Number(l.slice(at + 1)));
  }
  return out;
}

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

/** Waits until `replica` has reconciled every object labelled for it since `since`; returns those keys. */
async function reconciledSince(replica: string, keys: string[], since: number): Promise<Map<string, number>> {
  return eventually(
    `${replica} to reconcile ${keys.join(", ")}`,
    () => {
      const first = new Map<string, number>();
      for (const w of writeLog()) {
        if (w.replica !== replica || w.start < since) continue;
        if (!first.has(w.key) || (first.get(w.key) as number) > w.start) first.set(w.key, w.start);
      }
      return keys.every((k) => first.has(k)) ? first : undefined;
    },
    20_000,
    100,
  );
}

function keysOf(a: Map<string, string | undefined>, owner: string): string[] {
  return [...a].filter(([, o]) => o === owner).map(([k]) => k);
}

beforeAll(async () => {
  env = await startEnvironment();
  client = createClient(env.kubeConfig);
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
  for (const r of replicas.values()) r.child.kill("SIGKILL");
  await Promise.all([...replicas.values()].map((r) => r.exited));
  await env?.stop();
});

describe("three sharded replicas", () => {
  it("split the objects: each reconciles only its own, and together all", async () => {
    for (const name of ["shard-a", "shard-b", "shard-c"]) spawnReplica(name);
    const a = await settled(["shard-a", "shard-b", "shard-c"], 40_000);
    const since = Date.now();
    const owned = new Map(["shard-a", "shard-b", "shard-c"].map((r) => [r, keysOf(a, r)]));
    for (const [r, keys] of owned) {
      expect(keys.length, `${r} owns some objects`).toBeGreaterThan(0);
      await reconciledSince(r, keys, since);
    }
    // After the assignment settled, each replica reconciled exactly its own objects.
    await eventually(() => {
      const after = writeLog().filter((w) => w.start >= since);
      for (const [r, keys] of owned) {
        expect(new Set(after.filter((w) => w.replica === r).map((w) => w.key))).toEqual(new Set(keys));
      }
    });
    // Each replica counts the members and the objects it holds; the sharder (shard-a) counts its moves.
    for (const [r, keys] of owned) {
      await eventually(async () => {
        const m = await shardMetrics(r);
        expect(m.get(`kbts_shard_members{ring="test",shard="${r}"}`)).toBe(3);
        expect(m.get(`kbts_shard_objects{ring="test",shard="${r}"}`)).toBe(keys.length);
      });
    }
    const other = await client.get(ConfigMap, { namespace: "team-0", name: "other" });
    expect(other.metadata?.labels?.[LABEL]).toBeUndefined();
    expect(overlaps(writeLog())).toEqual([]);
  }, 60_000);

  it("let a joining replica take its share, with no object reconciled by two at once", async () => {
    const before = await assignment();
    const joinedAt = Date.now();
    spawnReplica("shard-d");
    const after = await settled(["shard-a", "shard-b", "shard-c", "shard-d"], 30_000);
    const moved = [...after].filter(([k, o]) => before.get(k) !== o);
    // Only the joiner's share moved, and it moved to the joiner.
    expect(moved.length).toBeGreaterThan(0);
    expect(new Set(moved.map(([, o]) => o))).toEqual(new Set(["shard-d"]));
    await reconciledSince("shard-d", keysOf(after, "shard-d"), joinedAt);
    expect(overlaps(writeLog())).toEqual([]);
    // Every move off a live member went through drain, and the sharder counted each.
    const m = await shardMetrics("shard-a");
    expect(m.get('kbts_shard_handovers_total{ring="test",reason="drain"}')).toBeGreaterThanOrEqual(
      moved.length,
    );
  }, 60_000);

  it("takes a SIGKILLed replica's objects over within its Lease duration plus one retry", async () => {
    const before = await assignment();
    // A replica that owns objects and is not the sharder (the lowest name, shard-a).
    const victim = ["shard-b", "shard-c", "shard-d"].find((r) => keysOf(before, r).length > 0) as string;
    const orphans = keysOf(before, victim);
    const replica = replicas.get(victim) as Replica;
    replica.killedAt = Date.now();
    replica.child.kill("SIGKILL");
    await replica.exited;
    const survivors = ["shard-a", "shard-b", "shard-c", "shard-d"].filter((r) => r !== victim);
    const after = await settled(survivors, 20_000);
    // Each orphan's first reconcile by its new owner, measured from the kill.
    const takenOver: number[] = [];
    for (const r of survivors) {
      const mine = orphans.filter((k) => after.get(k) === r);
      if (mine.length === 0) continue;
      const first = await reconciledSince(r, mine, replica.killedAt);
      takenOver.push(...first.values());
    }
    const slowest = Math.max(...takenOver) - replica.killedAt;
    // The Lease is judged expired a duration after its last renewal was seen (up to a retry after it
    // was sent), and the sharder looks every retry: duration + one retry, plus a second for the
    // relabel to reach the new owner's watch and its reconcile to start.
    expect(slowest).toBeLessThan(LEASE_MS + RETRY_MS + 1_000);
    // The dead member's Lease was taken over by the sharder, so it could never renew and write again.
    const lease = await client.get(Lease, { namespace: "shards", name: victim });
    expect(lease.spec?.holderIdentity).toBe("shard-a");
    expect(overlaps(writeLog())).toEqual([]);
    const m = await shardMetrics("shard-a");
    expect(m.get('kbts_shard_handovers_total{ring="test",reason="dead"}')).toBe(orphans.length);
  }, 60_000);
});
