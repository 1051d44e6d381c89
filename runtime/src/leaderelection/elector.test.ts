import { describe, expect, it } from "vitest";
import type { KubernetesObject } from "../api/meta.js";
import type { Client } from "../client/types.js";
import { eventually } from "../internal/testdata/eventually.js";
import { metricsRegistry } from "../metrics/registry.js";
import { createLeaderElector, defaultIdentity, LeadershipLostError } from "./elector.js";
import { fenceWrites } from "./fence.js";
import { formatMicroTime, type LeaderElectionRecord, type ResourceLock } from "./lock.js";

/** An in-memory lock with optimistic concurrency, like a Lease's resourceVersion. */
function memoryStore() {
  let record: LeaderElectionRecord | undefined;
  let version = 0;
  let down = false;
  const lock = (): ResourceLock => {
    let seen = -1;
    return {
      async get() {
        if (down) throw new Error("api server down");
        seen = version;
        return record ? { ...record } : undefined;
      },
      async create(r) {
        if (down) throw new Error("api server down");
        if (record) throw new Error("already exists");
        record = { ...r };
        seen = ++version;
      },
      async update(r) {
        if (down) throw new Error("api server down");
        if (seen !== version) throw new Error("conflict");
        record = { ...r };
        seen = ++version;
      },
      describe: () => "default/test",
    };
  };
  return { lock, current: () => record, setDown: (d: boolean) => (down = d) };
}

/** Polls `cond` (every 10 ms) until it holds. */
const until = (cond: () => boolean, ms: number) =>
  eventually("the condition", () => cond() || undefined, ms, 10);

const fast = { leaseDurationMs: 1_000, renewDeadlineMs: 600, retryPeriodMs: 100 };

describe("leader election", () => {
  it("formats MicroTime with six fractional digits", () => {
    expect(formatMicroTime(Date.UTC(2026, 0, 2, 3, 4, 5, 678))).toBe("2026-01-02T03:04:05.678000Z");
  });

  it("identity is hostname_uuid", () => {
    expect(defaultIdentity()).toMatch(/^.+_[0-9a-f-]{36}$/);
  });

  it("validates durations as client-go", () => {
    const { lock } = memoryStore();
    expect(() =>
      createLeaderElector({ lock: lock(), name: "x", leaseDurationMs: 10_000, renewDeadlineMs: 10_000 }),
    ).toThrow(/leaseDuration .* must be greater than renewDeadline/);
    expect(() =>
      createLeaderElector({ lock: lock(), name: "x", renewDeadlineMs: 2_000, retryPeriodMs: 2_000 }),
    ).toThrow(/1\.2 × retryPeriod/);
  });

  it("one leader at a time; a standby takes over after expiry and bumps leaseTransitions", async () => {
    const store = memoryStore();
    const a = createLeaderElector({ lock: store.lock(), name: "le-test", identity: "a", ...fast });
    // b's reads of the lock, each at the time b's clock gave the attempt, with what it saw.
    const bLock = store.lock();
    let bClock = 0;
    const reads: { at: number; seen: string }[] = [];
    const recording: ResourceLock = {
      ...bLock,
      async get() {
        const at = bClock;
        const record = await bLock.get();
        reads.push({ at, seen: JSON.stringify(record) });
        return record;
      },
    };
    const b = createLeaderElector({
      lock: recording,
      name: "le-test",
      identity: "b",
      now: () => {
        bClock = Date.now();
        return bClock;
      },
      ...fast,
    });
    const stopA = new AbortController();
    const stopB = new AbortController();
    const runA = a.run(stopA.signal);
    await until(() => a.isLeader(), 2_000);
    const firstRenew = store.current()?.renewTime;
    const runB = b.run(stopB.signal);
    // Past a lease and a retry: had a stopped renewing, b would hold the lease by now.
    await new Promise((r) => setTimeout(r, fast.leaseDurationMs + 5 * fast.retryPeriodMs));
    expect(b.isLeader()).toBe(false);
    expect(b.getLeader()).toBe("a");
    expect(store.current()).toMatchObject({
      holderIdentity: "a",
      leaseDurationSeconds: 1,
      leaseTransitions: 0,
    });
    expect(store.current()?.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(store.current()?.renewTime).not.toBe(firstRenew);
    expect(await metricsRegistry.getSingleMetricAsString("leader_election_master_status")).toMatch(
      /^leader_election_master_status\{name="le-test"\} 1$/m,
    );

    // "Kill" a: stop renewing without releasing.
    stopA.abort();
    expect(await runA).toBe("stopped");
    await until(() => b.isLeader(), 3_000);
    expect(store.current()).toMatchObject({ holderIdentity: "b", leaseTransitions: 1 });
    // client-go's rule, on b's own clock: the lease expires leaseDuration after b last saw the record
    // change, and b takes it over at its first read after that, not before and not a read later.
    const changed = reads.filter((r, i) => i === 0 || r.seen !== reads[i - 1]?.seen);
    const lastChange = changed.at(-1)?.at ?? 0;
    const expiry = lastChange + fast.leaseDurationMs;
    const acquiring = reads.at(-1)?.at ?? 0;
    expect(acquiring).toBeGreaterThanOrEqual(expiry);
    expect(reads.filter((r) => r.at >= expiry)).toHaveLength(1);
    // Not a wall-clock bound here: the unit run on the LTS, at nice 19 beside the integration files, fires
    // b's timers late. manager.int.test.ts holds a replica to leaseDuration + retryPeriod against a real
    // API server.
    stopB.abort();
    await runB;
  });

  it("releaseOnCancel hands the lease over at once", async () => {
    const store = memoryStore();
    const a = createLeaderElector({
      lock: store.lock(),
      name: "le-rel",
      identity: "a",
      releaseOnCancel: true,
      ...fast,
    });
    const stopA = new AbortController();
    const runA = a.run(stopA.signal);
    await until(() => a.isLeader(), 2_000);
    stopA.abort();
    await runA;
    expect(store.current()).toMatchObject({ holderIdentity: "", leaseDurationSeconds: 1 });
    const b = createLeaderElector({ lock: store.lock(), name: "le-rel", identity: "b", ...fast });
    const stopB = new AbortController();
    const runB = b.run(stopB.signal);
    await until(() => b.isLeader(), 500);
    expect(store.current()).toMatchObject({ holderIdentity: "b", leaseTransitions: 1 });
    stopB.abort();
    await runB;
  });

  it("loses the lease when it cannot renew within renewDeadline", async () => {
    const store = memoryStore();
    let lost = false;
    const a = createLeaderElector({
      lock: store.lock(),
      name: "le-lost",
      identity: "a",
      onStoppedLeading: () => {
        lost = true;
      },
      ...fast,
    });
    const run = a.run(new AbortController().signal);
    await until(() => a.isLeader(), 2_000);
    store.setDown(true);
    const t0 = Date.now();
    expect(await run).toBe("lost");
    expect(lost).toBe(true);
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(fast.renewDeadlineMs - 50);
    expect(took).toBeLessThan(fast.renewDeadlineMs + 2 * fast.retryPeriodMs + 200);
    const text = await metricsRegistry.getSingleMetricAsString("leader_election_master_status");
    expect(text).toContain('leader_election_master_status{name="le-lost"} 0');
  });
});

/**
 * A client whose writes pass through `gate` before they are "sent", where the REST layer would run
 * the write guard: the time between passing the fence and the first byte on the wire.
 */
function heldClient(gate: () => Promise<void>) {
  const sent: string[] = [];
  let guardCalls = 0;
  const withGuard = (guard?: () => void): Client => {
    const write = async (obj: KubernetesObject) => {
      await gate();
      if (guard) {
        guardCalls++;
        guard();
      }
      sent.push(obj.metadata?.name ?? "");
      return obj;
    };
    const client = {
      create: (_kind: unknown, obj: KubernetesObject) => write(obj),
      update: (_kind: unknown, obj: KubernetesObject) => write(obj),
      withWriteGuard: (g: () => void) => withGuard(g),
    };
    return client as unknown as Client;
  };
  return { client: withGuard(), sent, guardCalls: () => guardCalls };
}

const Thing = { group: "", version: "v1", kind: "ConfigMap", plural: "configmaps", namespaced: true };

describe("the write fence at send time", () => {
  it("a write held past leadership's end is refused unsent", async () => {
    const store = memoryStore();
    const a = createLeaderElector({ lock: store.lock(), name: "fence-lost", identity: "a", ...fast });
    const run = a.run(new AbortController().signal);
    await until(() => a.isLeader(), 2_000);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const { client, sent } = heldClient(() => held);
    const fenced = fenceWrites(
      client,
      () => a.ensureLeading(),
      () => a.checkLeading(),
    );
    const write = fenced.update(Thing, { metadata: { name: "late", namespace: "ns" } });
    // It passed the fence; while it waits to be sent, the API server goes away and the lease is lost.
    store.setDown(true);
    expect(await run).toBe("lost");
    release();
    await expect(write).rejects.toBeInstanceOf(LeadershipLostError);
    expect(sent).toEqual([]);
  });

  it("a write held past renewDeadline goes back through the fence, then out once renewed", async () => {
    let clock = Date.now();
    const store = memoryStore();
    const a = createLeaderElector({
      lock: store.lock(),
      name: "fence-stale",
      identity: "a",
      now: () => clock,
      ...fast,
    });
    const stop = new AbortController();
    const run = a.run(stop.signal);
    await until(() => a.isLeader(), 2_000);
    let first = true;
    const { client, sent, guardCalls } = heldClient(async () => {
      // The first attempt is held while our clock passes renewDeadline with no renewal (a paused process).
      if (first) {
        first = false;
        clock += fast.renewDeadlineMs + 1;
      }
    });
    const renewedBefore = store.current()?.renewTime;
    const fenced = fenceWrites(
      client,
      () => a.ensureLeading(),
      () => a.checkLeading(),
    );
    await fenced.update(Thing, { metadata: { name: "checked", namespace: "ns" } });
    expect({ sent, guardCalls: guardCalls() }).toEqual({ sent: ["checked"], guardCalls: 2 });
    // It went out on a lease renewed after the stale check, not on the old one.
    expect(store.current()?.renewTime).not.toBe(renewedBefore);
    stop.abort();
    expect(await run).toBe("stopped");
  });
});
