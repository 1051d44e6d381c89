import { describe, expect, it } from "vitest";
import { metricsRegistry } from "../metrics/registry.js";
import { createLeaderElector, defaultIdentity } from "./elector.js";
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

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

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
    const b = createLeaderElector({ lock: store.lock(), name: "le-test", identity: "b", ...fast });
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
    const killedAt = Date.now();
    stopA.abort();
    expect(await runA).toBe("stopped");
    await until(() => b.isLeader(), 3_000);
    const takeover = Date.now() - killedAt;
    expect(takeover).toBeLessThanOrEqual(fast.leaseDurationMs + fast.retryPeriodMs + 150);
    expect(store.current()).toMatchObject({ holderIdentity: "b", leaseTransitions: 1 });
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
