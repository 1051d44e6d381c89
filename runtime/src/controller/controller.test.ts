import { afterEach, describe, expect, it } from "vitest";
import type { KubernetesObject } from "../api/meta.js";
import { enqueueRequestForObject } from "../handler/enqueue.js";
import type { RequestQueue } from "../handler/types.js";
import { eventually } from "../internal/testdata/eventually.js";
import { metricsRegistry } from "../metrics/registry.js";
import { type ReconcileContext, type Request, type Result, TerminalError } from "../reconcile/types.js";
import { exponentialFailureRateLimiter } from "../workqueue/ratelimiter.js";
import { createUnmanagedController } from "./controller.js";
import { channelSource, type Source } from "./source.js";

let counter = 0;
const uniqueName = (base: string) => `${base}_${process.pid}_${++counter}`;
const stops: AbortController[] = [];
afterEach(() => {
  for (const s of stops.splice(0)) s.abort();
});

/** A source that lets the test enqueue requests directly. */
function directSource(): Source & { queue?: RequestQueue } {
  const s: Source & { queue?: RequestQueue } = {
    name: "direct",
    async start(queue) {
      s.queue = queue;
    },
    async waitForSync() {
      return true;
    },
  };
  return s;
}

/** Polls `cond` (every 5 ms) until it holds. */
const until = (cond: () => boolean, ms = 5_000) =>
  eventually("the condition", () => cond() || undefined, ms, 5);

function metricValue(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(" ")[1]) : Number.NaN;
}

function start(
  name: string,
  reconcile: (r: Request, c: ReconcileContext) => Promise<Result | undefined>,
  extra = {},
) {
  const src = directSource();
  const c = createUnmanagedController(name, {
    reconciler: { reconcile },
    rateLimiter: exponentialFailureRateLimiter(5, 200),
    ...extra,
  });
  c.watch(src);
  const stop = new AbortController();
  stops.push(stop);
  const done = c.start(stop.signal);
  return { c, src, stop, done };
}

describe("controller", () => {
  it("rejects duplicate names and bad options", () => {
    const name = uniqueName("dup");
    const reconciler = { reconcile: async () => undefined };
    createUnmanagedController(name, { reconciler });
    expect(() => createUnmanagedController(name, { reconciler })).toThrow(
      /controller with name .* already exists\. Controller names must be unique/,
    );
    expect(createUnmanagedController(name, { reconciler, skipNameValidation: true }).name).toBe(name);
    expect(() =>
      createUnmanagedController(uniqueName("w"), { reconciler, maxConcurrentReconciles: 0 }),
    ).toThrow(/maxConcurrentReconciles/);
  });

  it("warmUp warms every source, also one watched later, without starting them; start then runs as usual", async () => {
    const events: string[] = [];
    const warmable = (n: string): Source => ({
      ...directSource(),
      name: n,
      async start() {
        events.push(`${n}:start`);
      },
      async warmUp() {
        events.push(`${n}:warmUp`);
      },
    });
    const reconciled: string[] = [];
    const c = createUnmanagedController(uniqueName("warm"), {
      reconciler: {
        reconcile: async (r) => {
          reconciled.push(r.name);
          return undefined;
        },
      },
      enableWarmup: true,
    });
    expect(c.enableWarmup).toBe(true);
    c.watch(warmable("a"));
    const stop = new AbortController();
    stops.push(stop);
    await c.warmUp(stop.signal);
    c.watch(warmable("b"));
    expect(events).toEqual(["a:warmUp", "b:warmUp"]);
    const done = c.start(stop.signal);
    await until(() => events.length === 4);
    expect(events.slice(2).sort()).toEqual(["a:start", "b:start"]);
    stop.abort();
    await done;
    expect(reconciled).toEqual([]);
  });

  it("success forgets the backoff; requeueAfter forgets and comes back after the delay", async () => {
    const name = uniqueName("result");
    const calls: number[] = [];
    let n = 0;
    const { src } = start(name, async () => {
      calls.push(Date.now());
      n++;
      return n === 1 ? { requeueAfter: 50 } : undefined;
    });
    await until(() => src.queue !== undefined);
    src.queue?.add({ namespace: "ns", name: "a" });
    await until(() => calls.length === 2);
    expect((calls[1] ?? 0) - (calls[0] ?? 0)).toBeGreaterThanOrEqual(45);
    await new Promise((r) => setTimeout(r, 100));
    expect(calls.length).toBe(2);
    const text = await metricsRegistry.metrics();
    expect(
      metricValue(text, `controller_runtime_reconcile_total{controller="${name}",result="requeue_after"}`),
    ).toBe(1);
    expect(
      metricValue(text, `controller_runtime_reconcile_total{controller="${name}",result="success"}`),
    ).toBe(1);
    expect(metricValue(text, `controller_runtime_reconcile_total{controller="${name}",result="error"}`)).toBe(
      0,
    );
    expect(
      metricValue(text, `controller_runtime_reconcile_total{controller="${name}",result="requeue"}`),
    ).toBe(0);
    expect(metricValue(text, `workqueue_retries_total{name="${name}",controller="${name}"}`)).toBe(1);
  });

  it('requeueAfter takes a Go duration string ("80ms"); a malformed one is a reconcile error', async () => {
    const name = uniqueName("duration");
    const calls: number[] = [];
    const { src } = start(name, async () => {
      calls.push(Date.now());
      if (calls.length === 1) return { requeueAfter: "80ms" };
      if (calls.length === 2) return { requeueAfter: "soon" };
      return undefined;
    });
    await until(() => src.queue !== undefined);
    src.queue?.add({ namespace: "ns", name: "a" });
    await until(() => calls.length === 3);
    expect((calls[1] ?? 0) - (calls[0] ?? 0)).toBeGreaterThanOrEqual(75);
    const text = await metricsRegistry.metrics();
    expect(metricValue(text, `controller_runtime_reconcile_total{controller="${name}",result="error"}`)).toBe(
      1,
    );
  });

  it("an error requeues with growing backoff; a terminal error does not requeue", async () => {
    const name = uniqueName("errors");
    const times: number[] = [];
    // The delays the controller asks of the queue, recorded from the rate limiter it is given: growth is
    // read there, not from wall-clock gaps, which a starved process (the niced LTS run) stretches at will.
    const limiter = exponentialFailureRateLimiter(5, 200);
    const delays: number[] = [];
    const recording = {
      ...limiter,
      when(key: string) {
        const delay = limiter.when(key);
        if (key === "flaky") delays.push(delay);
        return delay;
      },
    };
    const { src } = start(
      name,
      async (req) => {
        if (req.name === "terminal") throw new TerminalError("cannot ever work");
        times.push(Date.now());
        if (times.length < 5) throw new Error("transient");
        return undefined;
      },
      { rateLimiter: recording },
    );
    await until(() => src.queue !== undefined);
    src.queue?.add({ name: "terminal" });
    src.queue?.add({ name: "flaky" });
    await until(() => times.length === 5);
    // 5, 10, 20, 40 ms backoff, and the queue held the item each delay before handing it out again.
    expect(delays).toEqual([5, 10, 20, 40]);
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
    for (const [i, gap] of gaps.entries()) expect(gap).toBeGreaterThanOrEqual((delays[i] ?? 0) - 1);
    await new Promise((r) => setTimeout(r, 50));
    const text = await metricsRegistry.metrics();
    expect(metricValue(text, `controller_runtime_reconcile_errors_total{controller="${name}"}`)).toBe(5);
    expect(
      metricValue(text, `controller_runtime_terminal_reconcile_errors_total{controller="${name}"}`),
    ).toBe(1);
    expect(metricValue(text, `controller_runtime_reconcile_total{controller="${name}",result="error"}`)).toBe(
      5,
    );
    expect(
      metricValue(text, `controller_runtime_reconcile_total{controller="${name}",result="success"}`),
    ).toBe(1);
    expect(metricValue(text, `workqueue_retries_total{name="${name}",controller="${name}"}`)).toBe(4);
  });

  it("a terminal error wrapped as a cause is still terminal", async () => {
    const name = uniqueName("wrapped");
    let calls = 0;
    const { src } = start(name, async () => {
      calls++;
      throw new Error("outer", { cause: new TerminalError("inner") });
    });
    await until(() => src.queue !== undefined);
    src.queue?.add({ name: "x" });
    await until(() => calls === 1);
    await new Promise((r) => setTimeout(r, 60));
    expect(calls).toBe(1);
  });

  it("panics (non-Error throws, sync throws, TypeErrors) are counted, retried and never crash", async () => {
    const name = uniqueName("panics");
    let calls = 0;
    const src = directSource();
    const c = createUnmanagedController(name, {
      rateLimiter: exponentialFailureRateLimiter(5, 200),
      reconciler: {
        reconcile(req) {
          calls++;
          if (req.name === "sync") throw new Error("thrown before any promise");
          if (req.name === "string") return Promise.reject("a string");
          if (req.name === "type" && calls < 10) {
            const o = undefined as unknown as { x: number };
            return Promise.resolve({ requeueAfter: o.x });
          }
          return Promise.reject(new Error("plain error"));
        },
      },
    });
    c.watch(src);
    const stop = new AbortController();
    stops.push(stop);
    void c.start(stop.signal);
    await until(() => src.queue !== undefined);
    src.queue?.add({ name: "sync" });
    src.queue?.add({ name: "string" });
    src.queue?.add({ name: "plain" });
    await until(() => calls >= 6);
    stop.abort();
    const text = await metricsRegistry.metrics();
    const panics = metricValue(text, `controller_runtime_reconcile_panics_total{controller="${name}"}`);
    const errors = metricValue(text, `controller_runtime_reconcile_errors_total{controller="${name}"}`);
    expect(panics).toBeGreaterThanOrEqual(2);
    expect(errors).toBeGreaterThan(panics); // plain errors are errors, not panics
  });

  it("counts a TypeError from a bug as a panic", async () => {
    const name = uniqueName("typeerror");
    let calls = 0;
    const { src } = start(name, async () => {
      calls++;
      const o = undefined as unknown as { x: { y: number } };
      return { requeueAfter: o.x.y };
    });
    await until(() => src.queue !== undefined);
    src.queue?.add({ name: "x" });
    await until(() => calls >= 2);
    const text = await metricsRegistry.metrics();
    expect(
      metricValue(text, `controller_runtime_reconcile_panics_total{controller="${name}"}`),
    ).toBeGreaterThanOrEqual(1);
  });

  it("never reconciles one key on two workers at once", async () => {
    const name = uniqueName("exclusive");
    const inFlight = new Set<string>();
    let overlaps = 0;
    let total = 0;
    let maxParallel = 0;
    const { src } = start(
      name,
      async (req) => {
        if (inFlight.has(req.name)) overlaps++;
        inFlight.add(req.name);
        maxParallel = Math.max(maxParallel, inFlight.size);
        await new Promise((r) => setTimeout(r, 2));
        inFlight.delete(req.name);
        total++;
        return undefined;
      },
      { maxConcurrentReconciles: 4 },
    );
    await until(() => src.queue !== undefined);
    for (let i = 0; i < 400; i++) {
      src.queue?.add({ name: `k${i % 10}` });
      if (i % 20 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    await until(() => inFlight.size === 0 && total >= 10);
    await new Promise((r) => setTimeout(r, 30));
    expect(overlaps).toBe(0);
    expect(maxParallel).toBeGreaterThan(1);
    expect(maxParallel).toBeLessThanOrEqual(4);
  });

  it("aborts the reconcile signal on timeout and counts it", async () => {
    const name = uniqueName("timeout");
    let sawAbort = false;
    const { src } = start(
      name,
      (_req, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => {
            sawAbort = true;
            resolve(undefined);
          });
        }),
      { reconcileTimeoutMs: 30 },
    );
    await until(() => src.queue !== undefined);
    src.queue?.add({ name: "slow" });
    await until(() => sawAbort);
    const text = await metricsRegistry.metrics();
    expect(metricValue(text, `controller_runtime_reconcile_timeouts_total{controller="${name}"}`)).toBe(1);
  });

  it("initialises its series at start and stops its workers on abort", async () => {
    const name = uniqueName("init");
    const { stop, done } = start(name, async () => undefined, { maxConcurrentReconciles: 3 });
    await new Promise((r) => setTimeout(r, 20));
    const text = await metricsRegistry.metrics();
    for (const result of ["success", "error", "requeue", "requeue_after"]) {
      expect(text).toContain(`controller_runtime_reconcile_total{controller="${name}",result="${result}"} 0`);
    }
    expect(text).toContain(`controller_runtime_max_concurrent_reconciles{controller="${name}"} 3`);
    expect(text).toContain(`controller_runtime_active_workers{controller="${name}"} 0`);
    expect(text).toContain(
      `controller_runtime_reconcile_time_seconds_bucket{le="0.005",controller="${name}"} 0`,
    );
    expect(text).toContain(
      `controller_runtime_reconcile_time_seconds_bucket{le="60",controller="${name}"} 0`,
    );
    stop.abort();
    await done;
  });

  it("fails start when a source does not sync within cacheSyncTimeoutMs", async () => {
    const name = uniqueName("nosync");
    const c = createUnmanagedController(name, {
      reconciler: { reconcile: async () => undefined },
      cacheSyncTimeoutMs: 50,
    });
    c.watch({
      name: "kind source: Never",
      async start() {},
      waitForSync: (signal) =>
        new Promise((resolve) => signal.addEventListener("abort", () => resolve(false), { once: true })),
    });
    const stop = new AbortController();
    stops.push(stop);
    await expect(c.start(stop.signal)).rejects.toThrow(
      new RegExp(`failed to wait for ${name} caches to sync kind source: Never`),
    );
  });

  it("channelSource delivers generic events through predicates to the handler", async () => {
    const name = uniqueName("channel");
    const seen: string[] = [];
    const src = channelSource<KubernetesObject>(enqueueRequestForObject(), {
      generic: (e) => e.object.metadata?.name !== "skip",
    });
    const c = createUnmanagedController(name, {
      reconciler: {
        reconcile: async (r) => {
          seen.push(r.name);
          return undefined;
        },
      },
    });
    c.watch(src);
    src.emit({ metadata: { name: "early", namespace: "ns" } });
    const stop = new AbortController();
    stops.push(stop);
    void c.start(stop.signal);
    src.emit({ metadata: { name: "skip", namespace: "ns" } });
    src.emit({ metadata: { name: "late", namespace: "ns" } });
    await until(() => seen.length === 2);
    expect(seen.sort()).toEqual(["early", "late"]);
  });
});
