import { describe, expect, it } from "vitest";
import type { Cache } from "../cache/types.js";
import type { Client } from "../client/types.js";
import { eventually } from "../internal/testdata/eventually.js";
import { unreachableKubeConfig } from "../internal/testdata/kubeconfig.js";
import { nopLogger } from "../log/logger.js";
import { createManager } from "./manager.js";
import type { ManagerOptions, Runnable } from "./types.js";

/** A cache whose sync the test releases, recording when it starts. */
function fakeCache(events: string[]) {
  let release!: () => void;
  const synced = new Promise<void>((r) => {
    release = r;
  });
  let isSynced = false;
  void synced.then(() => {
    isSynced = true;
  });
  const cache = {
    async start(signal: AbortSignal) {
      events.push("cache:start");
      await new Promise<void>((r) => signal.addEventListener("abort", () => r(), { once: true }));
      events.push("cache:stop");
    },
    async waitForCacheSync(signal?: AbortSignal) {
      if (isSynced) return true;
      return Promise.race([
        synced.then(() => true),
        new Promise<boolean>((r) => signal?.addEventListener("abort", () => r(false), { once: true })),
      ]);
    },
  } as unknown as Cache;
  return { cache, release };
}

function manager(events: string[], extra: ManagerOptions = {}) {
  const { cache, release } = fakeCache(events);
  const mgr = createManager({
    kubeConfig: unreachableKubeConfig(),
    logger: nopLogger(),
    metricsBindAddress: "127.0.0.1:0",
    healthProbeBindAddress: "127.0.0.1:0",
    newCache: () => cache,
    newClient: () => ({}) as Client,
    ...extra,
  });
  return { mgr, release };
}

function recording(events: string[], name: string, needLeaderElection?: boolean): Runnable {
  return {
    needLeaderElection,
    async start(signal) {
      events.push(`${name}:start`);
      await new Promise<void>((r) => signal.addEventListener("abort", () => r(), { once: true }));
      events.push(`${name}:stop`);
    },
  };
}

/** Polls `cond` (every 5 ms) until it holds. */
const until = (cond: () => boolean, ms = 3_000) =>
  eventually("the condition", () => cond() || undefined, ms, 5);

describe("createManager", () => {
  it("requires a leaderElectionID with leader election", () => {
    expect(() => createManager({ kubeConfig: unreachableKubeConfig(), leaderElection: true })).toThrow(
      "LeaderElectionID must be configured",
    );
  });

  it("starts servers, then caches (waiting for sync), then others and controllers; stops in reverse", async () => {
    const events: string[] = [];
    const { mgr, release } = manager(events);
    mgr.add(recording(events, "controller"));
    mgr.add(recording(events, "other", false));
    const stop = new AbortController();
    const done = mgr.start(stop.signal);
    await until(() => mgr.httpAddress("healthProbe") !== undefined);
    const probe = `http://127.0.0.1:${mgr.httpAddress("healthProbe")?.port}`;

    // Servers are up before the caches sync: liveness passes, readiness does not.
    expect((await fetch(`${probe}/healthz`)).status).toBe(200);
    const notReady = await fetch(`${probe}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.text()).toBe(
      "[-]cache-sync failed: reason withheld\n[+]watches ok\nhealthz check failed\n",
    );
    expect(events).toEqual(["cache:start"]);

    release();
    await mgr.elected();
    await until(() => events.includes("controller:start"));
    expect(events).toEqual(["cache:start", "other:start", "controller:start"]);
    expect((await fetch(`${probe}/readyz`)).status).toBe(200);

    const metrics = await fetch(`http://127.0.0.1:${mgr.httpAddress("metrics")?.port}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    expect(await metrics.text()).toContain("process_cpu_user_seconds_total");
    expect((await fetch(`http://127.0.0.1:${mgr.httpAddress("metrics")?.port}/other`)).status).toBe(404);

    // Added after start: started at once.
    mgr.add(recording(events, "late"));
    await until(() => events.includes("late:start"));
    expect(() => mgr.addHealthzCheck("x", () => {})).toThrow(/already started/);

    stop.abort();
    await done;
    const stops = events.slice(4);
    expect(stops.slice(0, 2).sort()).toEqual(["controller:stop", "late:stop"]); // the leader group stops together
    expect(stops.slice(2)).toEqual(["other:stop", "cache:stop"]);
  });

  it("warms up leader-only runnables before the caches start when enableWarmup is set, per runnable overriding", async () => {
    const events: string[] = [];
    const warm = (name: string, enableWarmup?: boolean): Runnable => ({
      ...recording(events, name),
      enableWarmup,
      async warmUp() {
        events.push(`${name}:warmUp`);
      },
    });
    const { mgr, release } = manager(events, { enableWarmup: true });
    mgr.add(warm("default"));
    mgr.add(warm("optedOut", false));
    mgr.add({ ...warm("notLeaderOnly"), needLeaderElection: false });
    const stop = new AbortController();
    const done = mgr.start(stop.signal);
    await until(() => events.includes("cache:start"));
    expect(events).toEqual(["default:warmUp", "cache:start"]);
    // Added after the caches started but before leading: warmed at once.
    mgr.add(warm("late"));
    expect(events).toEqual(["default:warmUp", "cache:start", "late:warmUp"]);
    release();
    await until(() => events.includes("late:start"));
    expect(events.filter((e) => e.endsWith(":warmUp"))).toEqual(["default:warmUp", "late:warmUp"]);
    stop.abort();
    await done;

    // Off by default (controller-runtime's default); a runnable may opt in alone.
    const events2: string[] = [];
    const second = manager(events2);
    second.release();
    second.mgr.add({
      ...recording(events2, "plain"),
      async warmUp() {
        events2.push("plain:warmUp");
      },
    });
    second.mgr.add({
      ...recording(events2, "optedIn"),
      enableWarmup: true,
      async warmUp() {
        events2.push("optedIn:warmUp");
      },
    });
    const stop2 = new AbortController();
    const done2 = second.mgr.start(stop2.signal);
    await until(() => events2.includes("optedIn:start") && events2.includes("plain:start"));
    expect(events2.filter((e) => e.endsWith(":warmUp"))).toEqual(["optedIn:warmUp"]);
    stop2.abort();
    await done2;
  });

  it("a failing runnable stops the manager and start rejects with its error", async () => {
    const events: string[] = [];
    const { mgr, release } = manager(events);
    release();
    mgr.add({
      async start() {
        throw new Error("controller could not start");
      },
    });
    mgr.add(recording(events, "peer"));
    await expect(mgr.start()).rejects.toThrow("controller could not start");
    expect(events).toContain("peer:stop");
  });

  it("gives up after gracefulShutdownTimeoutMs when a runnable ignores the stop", async () => {
    const events: string[] = [];
    const { mgr, release } = manager(events, { gracefulShutdownTimeoutMs: 200 });
    release();
    mgr.add({ start: () => new Promise<void>(() => {}) });
    const stop = new AbortController();
    const done = mgr.start(stop.signal);
    await mgr.elected();
    const t0 = Date.now();
    stop.abort();
    await expect(done).rejects.toThrow("failed waiting for all runnables to end within grace period of 0.2s");
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  it("drains for shutdownDelayMs on a stop signal: not ready at once, everything still running, then stops", async () => {
    const events: string[] = [];
    const { mgr, release } = manager(events, { shutdownDelayMs: 400 });
    release();
    mgr.add(recording(events, "controller"));
    const stop = new AbortController();
    const done = mgr.start(stop.signal);
    await mgr.elected();
    await until(() => events.includes("controller:start"));
    const probe = `http://127.0.0.1:${mgr.httpAddress("healthProbe")?.port}`;
    expect((await fetch(`${probe}/readyz`)).status).toBe(200);

    const t0 = Date.now();
    stop.abort();
    await until(() => mgr.httpAddress("healthProbe") !== undefined);
    const draining = await fetch(`${probe}/readyz?verbose`);
    expect(draining.status).toBe(503);
    expect(await draining.text()).toContain("[-]shutdown failed: reason withheld");
    expect((await fetch(`${probe}/healthz`)).status).toBe(200); // alive: a liveness probe must not kill it
    expect(events).not.toContain("controller:stop");
    await done;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400);
    expect(events).toContain("controller:stop");
  });

  it("stops at once, without the shutdown delay, when a runnable fails", async () => {
    const events: string[] = [];
    const { mgr, release } = manager(events, { shutdownDelayMs: 5_000 });
    release();
    mgr.add({
      async start() {
        throw new Error("controller could not start");
      },
    });
    const t0 = Date.now();
    await expect(mgr.start()).rejects.toThrow("controller could not start");
    expect(Date.now() - t0).toBeLessThan(4_000);
  });

  it("rejects a malformed bind address with the option name", async () => {
    const events: string[] = [];
    const { mgr } = manager(events, { metricsBindAddress: "8080" });
    await expect(mgr.start()).rejects.toThrow(/metricsBindAddress "8080" is not host:port/);
  });

  it('disables servers with "0"', async () => {
    const events: string[] = [];
    const { mgr, release } = manager(events, { metricsBindAddress: "0", healthProbeBindAddress: "0" });
    release();
    const stop = new AbortController();
    const done = mgr.start(stop.signal);
    await mgr.elected();
    expect(mgr.httpAddress("metrics")).toBeUndefined();
    expect(mgr.httpAddress("healthProbe")).toBeUndefined();
    stop.abort();
    await done;
  });
});
