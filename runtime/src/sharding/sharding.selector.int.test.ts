// Sharding by KEP-5866's server-side shardSelector (issue 30, item 1) on kube-apiserver 1.36 with the
// ShardedListAndWatch gate on: nothing is labelled; each replica lists and watches only its hash
// ranges of object uids, published on its Lease. Replicas run as child processes (testdata/replica.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigMap, Lease, Namespace } from "../api/kinds.js";
import { createClient } from "../client/client.js";
import type { Client } from "../client/types.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { eventually } from "../internal/testdata/eventually.js";
import { shardLabel } from "./labels.js";
import { contains, fnv1a64, formatRanges, ringRanges } from "./ranges.js";
import { RANGES_ANNOTATION } from "./shard.js";
import { overlaps, Replicas } from "./testdata/harness.js";

const LEASE_MS = 3_000;
const RETRY_MS = 500;
const NS = "selected";
const FOUR = ["shard-a", "shard-b", "shard-c", "shard-d"];

let env: Environment;
let client: Client;
let replicas: Replicas;
/** Each object's key and uid. */
const uids = new Map<string, string>();

/** Each object's owner on the range ring of `members`, computed here as the API server hashes. */
function expectedOwners(members: string[]): Map<string, string> {
  const ranges = ringRanges(members);
  const out = new Map<string, string>();
  for (const [key, uid] of uids) {
    const h = fnv1a64(uid);
    for (const [m, rs] of ranges) if (contains(rs, h)) out.set(key, m);
  }
  return out;
}

/**
 * Waits until, over the last second, each member reconciled exactly the objects the ring gives it
 * and published exactly its ranges; returns when that first held. A timeout names the first member
 * that was off and how (the objects it owns and those it reconciled, or the ranges on its Lease).
 */
async function settled(members: string[], timeoutMs = 25_000): Promise<number> {
  const owners = expectedOwners(members);
  const ranges = ringRanges(members);
  const names = (keys: Iterable<string>) =>
    [...keys]
      .map((k) => k.slice(NS.length + 1))
      .sort()
      .join(" ");
  return eventually(
    `reconciles split over ${members.join(", ")}`,
    async () => {
      const now = Date.now();
      const recent = replicas.writeLog().filter((w) => w.start >= now - 1_000);
      for (const m of members) {
        const mine = new Set([...owners].filter(([, o]) => o === m).map(([k]) => k));
        const did = new Set(recent.filter((w) => w.replica === m).map((w) => w.key));
        if (did.size !== mine.size || [...mine].some((k) => !did.has(k)))
          throw new Error(`${m} owns [${names(mine)}] but reconciled [${names(did)}] in the last second`);
        const lease = await client.get(Lease, { namespace: "shards", name: m });
        const published = lease.metadata?.annotations?.[RANGES_ANNOTATION];
        const want = formatRanges(ranges.get(m) ?? []);
        if (published !== want) throw new Error(`${m}'s Lease publishes ranges ${published}, not ${want}`);
      }
      return now;
    },
    timeoutMs,
    100,
  );
}

beforeAll(async () => {
  env = await startEnvironment({ apiServerFlags: { "feature-gates": "ShardedListAndWatch=true" } });
  client = createClient(env.kubeConfig);
  replicas = new Replicas(env.kubeconfigPath, "shardSelector");
  await client.create(Namespace, { metadata: { name: "shards" } });
  await client.create(Namespace, { metadata: { name: NS } });
  // 16 objects, and more until every member owns one on the rings of 3 and of 4 members: the API
  // server picks the uids, and with 16 alone a member sometimes owned none (a fresh clone failed so).
  const ownsOne = (members: string[]) => {
    const owners = new Set(expectedOwners(members).values());
    return members.every((m) => owners.has(m));
  };
  for (let i = 0; i < 16 || !ownsOne(["shard-a", "shard-b", "shard-c"]) || !ownsOne(FOUR); i++) {
    if (i === 64) throw new Error("64 objects, and still a member of the ring owns none of them");
    const cm = await client.create(ConfigMap, {
      metadata: { name: `config-${i}`, namespace: NS, labels: { app: "sharded" } },
    });
    uids.set(`${NS}/config-${i}`, cm.metadata?.uid as string);
  }
}, 60_000);

afterAll(async () => {
  await replicas?.stopAll();
  await env?.stop();
});

describe("three replicas sharded by the API server", () => {
  it("split the objects by uid hash: each lists, watches and reconciles only its own", async () => {
    const members = ["shard-a", "shard-b", "shard-c"];
    for (const name of members) replicas.spawn(name);
    await settled(members, 40_000);
    const owners = expectedOwners(members);
    for (const m of members) {
      const mine = [...owners.values()].filter((o) => o === m).length;
      expect(mine, `${m} owns some objects`).toBeGreaterThan(0);
      // The API server sent each replica only its objects: its cache holds no others.
      await eventually(async () =>
        expect((await replicas.shardMetrics(m)).get(`kbts_shard_objects{ring="test",shard="${m}"}`)).toBe(
          mine,
        ),
      );
    }
    // Nothing was labelled: the API server did the selecting.
    for (const cm of await client.list(ConfigMap, { namespace: NS })) {
      expect(cm.metadata?.labels?.[shardLabel("test")]).toBeUndefined();
    }
    expect(overlaps(replicas.writeLog())).toEqual([]);
  }, 60_000);

  it("let a joining replica take up its ranges, with no object reconciled by two at once", async () => {
    const members = ["shard-a", "shard-b", "shard-c", "shard-d"];
    replicas.spawn("shard-d");
    await settled(members, 30_000);
    expect(overlaps(replicas.writeLog())).toEqual([]);
    // Those that gave ranges up listed again with their new selector: their caches dropped what moved.
    const owners = [...expectedOwners(members).values()];
    for (const m of members) {
      await eventually(async () =>
        expect((await replicas.shardMetrics(m)).get(`kbts_shard_objects{ring="test",shard="${m}"}`)).toBe(
          owners.filter((o) => o === m).length,
        ),
      );
    }
  }, 60_000);

  it("takes a SIGKILLed replica's ranges over within its Lease duration plus one retry", async () => {
    const before = expectedOwners(["shard-a", "shard-b", "shard-c", "shard-d"]);
    const victim = ["shard-b", "shard-c", "shard-d"].find((r) => [...before.values()].includes(r)) as string;
    const orphans = [...before].filter(([, o]) => o === victim).map(([k]) => k);
    const killedAt = await replicas.kill(victim);
    const survivors = ["shard-a", "shard-b", "shard-c", "shard-d"].filter((r) => r !== victim);
    await settled(survivors, 20_000);
    const after = expectedOwners(survivors);
    const takenOver: number[] = [];
    for (const r of survivors) {
      const mine = orphans.filter((k) => after.get(k) === r);
      if (mine.length > 0) takenOver.push(...(await replicas.reconciledSince(r, mine, killedAt)).values());
    }
    // Expiry a duration after the victim's last renewal reached the sharder's watch (before the
    // kill), the takeover then, the new owner's claim as soon as its watch sees the takeover; the
    // retry and a second are for those writes, the relist and the first reconcile.
    expect(Math.max(...takenOver) - killedAt).toBeLessThan(LEASE_MS + RETRY_MS + 1_000);
    const lease = await client.get(Lease, { namespace: "shards", name: victim });
    expect(lease.spec?.holderIdentity).toBe("shard-a");
    expect(overlaps(replicas.writeLog())).toEqual([]);
  }, 60_000);
});
