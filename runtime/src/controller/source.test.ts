import { KubeConfig } from "@kubernetes/client-node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigMap } from "../api/kinds.js";
import type { KubernetesObject } from "../api/meta.js";
import { dropManagedFields, SharedInformer } from "../cache/informer.js";
import type { Cache } from "../cache/types.js";
import { RestClient } from "../client/rest.js";
import { enqueueRequestsFromMapFunc } from "../handler/enqueue.js";
import type { RequestQueue } from "../handler/types.js";
import { nopLogger } from "../log/logger.js";
import { channelSource, kindSource } from "./source.js";

const kc = new KubeConfig();
kc.loadFromClusterAndUser({ name: "c", server: "https://127.0.0.1:1", skipTLSVerify: false }, { name: "u" });

/** A cache holding one informer that the test syncs by feeding its sink, as its reflector would. */
function oneInformerCache() {
  const informer = new SharedInformer({
    rest: new RestClient(kc),
    kind: ConfigMap,
    transform: dropManagedFields,
    syncPeriodMs: 0,
    logger: nopLogger(),
  });
  const cache = { getInformer: async () => informer } as unknown as Cache;
  return { informer, cache };
}

const handler = { create() {}, update() {}, delete() {}, generic() {} };
const queue = { add() {} } as unknown as RequestQueue;

describe("kindSource.waitForSync", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("resolves true when the informer syncs, without polling on a timer", async () => {
    const { informer, cache } = oneInformerCache();
    const source = kindSource(cache, ConfigMap, handler);
    const ac = new AbortController();
    await source.start(queue, ac.signal, nopLogger());
    vi.useFakeTimers();
    let result: boolean | undefined;
    const waiting = source.waitForSync(ac.signal).then((ok) => {
      result = ok;
    });
    await vi.advanceTimersByTimeAsync(50);
    expect(vi.getTimerCount()).toBe(0);
    expect(result).toBeUndefined();
    informer.sink(undefined).replace([], "1");
    await waiting;
    expect(result).toBe(true);
  });

  it("resolves false when its signal aborts before the informer syncs", async () => {
    const { cache } = oneInformerCache();
    const source = kindSource(cache, ConfigMap, handler);
    const run = new AbortController();
    await source.start(queue, run.signal, nopLogger());
    const sync = new AbortController();
    const waiting = source.waitForSync(sync.signal);
    sync.abort();
    await expect(waiting).resolves.toBe(false);
  });

  it("resolves false when its signal aborts before the source starts", async () => {
    const { cache } = oneInformerCache();
    const source = kindSource(cache, ConfigMap, handler);
    const sync = new AbortController();
    const waiting = source.waitForSync(sync.signal);
    sync.abort();
    await expect(waiting).resolves.toBe(false);
  });
});

describe("kindSource delivering an initial list to an asynchronous map function", () => {
  it("runs a bounded number of map calls at once, in order, and enqueues every request", async () => {
    const { informer, cache } = oneInformerCache();
    let inFlight = 0;
    let most = 0;
    const mapped: string[] = [];
    const mapper = enqueueRequestsFromMapFunc<KubernetesObject>(async (cm) => {
      inFlight++;
      most = Math.max(most, inFlight);
      mapped.push(cm.metadata?.name ?? "");
      // A cache read that yields, as client.list does, twice.
      await Promise.resolve();
      await new Promise((r) => setImmediate(r));
      inFlight--;
      return [{ namespace: "default", name: `owner-${cm.metadata?.name}` }];
    });
    const added: string[] = [];
    const q = { add: (r: { name: string }) => added.push(r.name) } as unknown as RequestQueue;
    const source = kindSource(cache, ConfigMap, mapper);
    const ac = new AbortController();
    await source.start(q, ac.signal, nopLogger());
    const names = Array.from({ length: 1000 }, (_, i) => `cm-${i}`);
    informer.sink(undefined).replace(
      names.map((name) => ({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name, namespace: "default", resourceVersion: "1" },
      })),
      "1",
    );
    await vi.waitFor(() => expect(added).toHaveLength(1000), { timeout: 10_000, interval: 5 });
    // Unbounded, all 1,000 calls were in flight at once (their state kept alive together).
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(8);
    expect(mapped).toEqual(names);
    expect(new Set(added)).toEqual(new Set(names.map((n) => `owner-${n}`)));
    ac.abort();
  });

  it("calls a handler that returns no promise at once, even behind a busy one", async () => {
    const { informer, cache } = oneInformerCache();
    const seen: string[] = [];
    const source = kindSource(cache, ConfigMap, {
      ...handler,
      create: (e) => {
        seen.push(e.object.metadata?.name ?? "");
      },
    });
    const ac = new AbortController();
    await source.start(queue, ac.signal, nopLogger());
    informer.sink(undefined).replace(
      ["a", "b", "c"].map((name) => ({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name, namespace: "default", resourceVersion: "1" },
      })),
      "1",
    );
    expect(seen).toEqual(["a", "b", "c"]);
    ac.abort();
  });
});

describe("channelSource delivering what was emitted before it started", () => {
  it("runs a bounded number of asynchronous handler calls at once, in order", async () => {
    let inFlight = 0;
    let most = 0;
    const mapped: string[] = [];
    const source = channelSource(
      enqueueRequestsFromMapFunc<KubernetesObject>(async (cm) => {
        inFlight++;
        most = Math.max(most, inFlight);
        mapped.push(cm.metadata?.name ?? "");
        await new Promise((r) => setImmediate(r));
        inFlight--;
        return [{ namespace: "default", name: `owner-${cm.metadata?.name}` }];
      }),
    );
    const names = Array.from({ length: 200 }, (_, i) => `cm-${i}`);
    for (const name of names) source.emit({ metadata: { name, namespace: "default" } });
    const added: string[] = [];
    const q = { add: (r: { name: string }) => added.push(r.name) } as unknown as RequestQueue;
    const ac = new AbortController();
    await source.start(q, ac.signal, nopLogger());
    await vi.waitFor(() => expect(added).toHaveLength(200), { timeout: 10_000, interval: 5 });
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(8);
    expect(mapped).toEqual(names);
    ac.abort();
  });
});
