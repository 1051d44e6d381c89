import { KubeConfig } from "@kubernetes/client-node";
import { describe, expect, it, vi } from "vitest";
import { metadataOnly } from "../api/kind.js";
import { ConfigMap, Namespace } from "../api/kinds.js";
import type { KubernetesObject } from "../api/meta.js";
import { RestClient } from "../client/rest.js";
import type { Logger } from "../log/types.js";
import {
  deepCopyJSON,
  deepFreeze,
  dropManagedFields,
  freezeAndMeasure,
  jitteredResyncPeriod,
  SharedInformer,
} from "./informer.js";
import type { Informer, InformerEvent } from "./types.js";

// These tests drive the informer's sink directly (what its reflector feeds it); the reflector and the
// whole loop against a real API server are covered by cache.int.test.ts.
const kc = new KubeConfig();
kc.loadFromClusterAndUser({ name: "c", server: "https://127.0.0.1:1", skipTLSVerify: false }, { name: "u" });

function silentLogger(errors: string[] = []): Logger {
  const l: Logger = {
    info: () => {},
    warn: () => {},
    debug: () => {},
    error: (o: unknown, m?: string) => {
      errors.push(m ?? String(o));
    },
    child: () => l,
  };
  return l;
}

function informer(namespaces?: string[], errors?: string[]) {
  return new SharedInformer({
    rest: new RestClient(kc),
    kind: ConfigMap,
    namespaces,
    transform: dropManagedFields,
    syncPeriodMs: 0,
    logger: silentLogger(errors),
  });
}

const cm = (ns: string, name: string, rv: string, data: Record<string, string> = {}): ConfigMap => ({
  metadata: { namespace: ns, name, resourceVersion: rv, managedFields: [{ manager: "kubectl" }] },
  data,
});

/** Feeds the informer as its reflector does: every object through prepare() first. */
function feed(inf: SharedInformer, namespace?: string) {
  const sink = inf.sink(namespace);
  const prep = (o: KubernetesObject) => sink.prepare!(o);
  return {
    replace: (items: KubernetesObject[], rv: string) => sink.replace(items.map(prep), rv),
    upsert: (o: KubernetesObject) => sink.upsert(prep(o)),
    remove: (o: KubernetesObject) => sink.remove(prep(o)),
  };
}

function record(inf: SharedInformer) {
  const events: string[] = [];
  const raw: InformerEvent[] = [];
  inf.addEventHandler((e) => {
    raw.push(e);
    const o = e.object.metadata!;
    if (e.type === "add")
      events.push(
        `add ${o.namespace}/${o.name} initial=${e.isInInitialList}${e.relisted ? " relisted" : ""}`,
      );
    if (e.type === "update")
      events.push(
        `update ${o.namespace}/${o.name} ${e.oldObject.metadata!.resourceVersion}->${o.resourceVersion}`,
      );
    if (e.type === "delete") events.push(`delete ${o.namespace}/${o.name} unknown=${e.deleteStateUnknown}`);
  });
  return { events, raw };
}

describe("SharedInformer", () => {
  it("marks the initial list, then gives updates with old and new, and deletes", () => {
    const inf = informer();
    const { events, raw } = record(inf);
    expect(inf.hasSynced()).toBe(false);
    feed(inf).replace([cm("a", "x", "1")], "1");
    expect(inf.hasSynced()).toBe(true);
    feed(inf).upsert(cm("a", "y", "2"));
    feed(inf).upsert(cm("a", "x", "3", { k: "v" }));
    feed(inf).remove(cm("a", "y", "4"));
    expect(events).toEqual([
      "add a/x initial=true",
      "add a/y initial=false",
      "update a/x 1->3",
      "delete a/y unknown=false",
    ]);
    const update = raw[2];
    expect(update?.type === "update" && update.oldObject.metadata?.resourceVersion).toBe("1");
  });

  it("after a relist, deletes what vanished (state unknown), updates only what changed, marks what it made up", () => {
    const inf = informer();
    feed(inf).replace([cm("a", "same", "1"), cm("a", "changed", "1"), cm("a", "gone", "1")], "1");
    const { events } = record(inf);
    events.length = 0; // drop the replayed adds
    feed(inf).replace([cm("a", "same", "1"), cm("a", "changed", "5"), cm("a", "new", "6")], "6");
    expect(events).toEqual([
      "update a/changed 1->5",
      "add a/new initial=false relisted",
      "delete a/gone unknown=true",
    ]);
  });

  it("keeps the object it holds when a relist brings it back at the same version", () => {
    const inf = informer();
    feed(inf).replace([cm("a", "x", "1"), cm("a", "y", "1")], "1");
    const x = inf.store.get("a/x");
    const y = inf.store.get("a/y");
    const { events } = record(inf);
    events.length = 0;
    feed(inf).replace([cm("a", "x", "1"), cm("a", "y", "2", { changed: "yes" })], "2");
    expect(inf.store.get("a/x")).toBe(x);
    expect(inf.store.get("a/y")).not.toBe(y);
    expect((inf.store.get("a/y") as ConfigMap | undefined)?.data).toEqual({ changed: "yes" });
    expect(events).toEqual(["update a/y 1->2"]);
  });

  it("stamps apiVersion/kind, drops managedFields and freezes stored objects", () => {
    const inf = informer();
    feed(inf).replace([cm("a", "x", "1")], "1");
    const stored = inf.store.get("a/x")!;
    expect(stored.apiVersion).toBe("v1");
    expect(stored.kind).toBe("ConfigMap");
    expect(stored.metadata?.managedFields).toBeUndefined();
    expect(Object.isFrozen(stored.metadata)).toBe(true);
    expect(() => {
      (stored.metadata as { name: string }).name = "evil";
    }).toThrow(TypeError);
  });

  it("replays existing objects to a late handler and stops calling it after unsubscribe", () => {
    const inf = informer();
    feed(inf).replace([cm("a", "x", "1"), cm("b", "y", "1")], "1");
    const seen: string[] = [];
    const off = inf.addEventHandler((e) => seen.push(`${e.type}:${e.type === "add" && e.isInInitialList}`));
    expect(seen).toEqual(["add:true", "add:true"]);
    off();
    feed(inf).upsert(cm("a", "z", "2"));
    expect(seen).toHaveLength(2);
  });

  it("keeps delivering to other handlers when one throws", () => {
    const errors: string[] = [];
    const inf = informer(undefined, errors);
    inf.addEventHandler(() => {
      throw new Error("bad handler");
    });
    const { events } = record(inf);
    feed(inf).replace([cm("a", "x", "1")], "1");
    expect(events).toEqual(["add a/x initial=true"]);
    expect(errors).toEqual(["informer event handler threw"]);
  });

  it("syncs only when every watched namespace has listed, and relists touch only their namespace", async () => {
    const inf = informer(["a", "b"]);
    const synced = inf.waitForSync();
    feed(inf, "a").replace([cm("a", "x", "1")], "1");
    expect(inf.hasSynced()).toBe(false);
    feed(inf, "b").replace([cm("b", "y", "1")], "1");
    expect(inf.hasSynced()).toBe(true);
    await expect(synced).resolves.toBe(true);
    const { events } = record(inf);
    events.length = 0;
    feed(inf, "a").replace([], "2");
    expect(events).toEqual(["delete a/x unknown=true"]);
    expect(inf.store.get("b/y")).toBeDefined();
  });

  it("waitForSync resolves false when its signal aborts first", async () => {
    const inf = informer();
    const ac = new AbortController();
    const p = inf.waitForSync(ac.signal);
    ac.abort();
    await expect(p).resolves.toBe(false);
  });

  it("waitForSync, through the Informer interface, waits on the sync itself: no timer, and an abort lets go", async () => {
    vi.useFakeTimers();
    try {
      const inf: Informer = informer();
      const ac = new AbortController();
      const abandoned = inf.waitForSync?.(ac.signal);
      const synced = inf.waitForSync?.();
      expect(vi.getTimerCount()).toBe(0);
      ac.abort();
      await expect(abandoned).resolves.toBe(false);
      feed(inf as SharedInformer).replace([cm("a", "x", "1")], "1");
      await expect(synced).resolves.toBe(true);
      await expect(inf.waitForSync?.(AbortSignal.abort())).resolves.toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers a read waiting for a resourceVersion when its object arrives, and false when the informer stops", async () => {
    const inf = informer();
    feed(inf).replace([cm("a", "x", "1")], "1");
    const arrives = inf.waitForResourceVersion({ namespace: "a", name: "x" }, "5", 60_000);
    feed(inf).upsert(cm("a", "x", "5"));
    inf.sink().progress?.("5");
    await expect(arrives).resolves.toBe(true);
    // The reflector cannot reach its server here; the informer runs until stopped.
    const stop = new AbortController();
    const running = inf.run(stop.signal);
    const stranded = inf.waitForResourceVersion({ namespace: "a", name: "x" }, "9", 60_000);
    stop.abort();
    await running;
    await expect(stranded).resolves.toBe(false);
  });

  it("waits for each namespace's watch to pass that namespace's newest write, or one watch for all to pass the newest", async () => {
    const newest = new Map([
      ["a", "5"],
      ["b", "9"],
    ]);
    const perNamespace = informer(["a", "b"]);
    const [ra, rb] = perNamespace.reflectors;
    const all = perNamespace.waitForWatchProgress(newest, undefined, 60_000);
    const onlyA = perNamespace.waitForWatchProgress(newest, "a", 60_000);
    ra!.stats.lastResourceVersion = "5";
    perNamespace.sink("a").progress?.("5");
    await expect(onlyA).resolves.toBe(true);
    rb!.stats.lastResourceVersion = "8";
    perNamespace.sink("b").progress?.("8");
    rb!.stats.lastResourceVersion = "10";
    perNamespace.sink("b").progress?.("10");
    await expect(all).resolves.toBe(true);

    const clusterWide = informer();
    const [r] = clusterWide.reflectors;
    r!.stats.lastResourceVersion = "7"; // past a's newest, not b's
    await expect(clusterWide.waitForWatchProgress(newest, "a", 60_000)).resolves.toBe(true);
    await expect(clusterWide.waitForWatchProgress(newest, undefined, 50)).resolves.toBe(false);
    r!.stats.lastResourceVersion = "9";
    await expect(clusterWide.waitForWatchProgress(newest, undefined, 60_000)).resolves.toBe(true);
  });

  it("resync delivers update events with the same old and new object", () => {
    const inf = informer();
    feed(inf).replace([cm("a", "x", "1")], "1");
    const { raw } = record(inf);
    raw.length = 0;
    inf.resync();
    expect(raw).toHaveLength(1);
    const e = raw[0]!;
    expect(e.type === "update" && e.oldObject === e.object).toBe(true);
  });

  it("draws resync periods in [0.9, 1.1) of the configured one", () => {
    for (let i = 0; i < 100; i++) {
      const p = jitteredResyncPeriod(1000);
      expect(p).toBeGreaterThanOrEqual(900);
      expect(p).toBeLessThan(1100);
    }
  });

  it("watches cluster-scoped kinds cluster-wide even with namespaces set", () => {
    const inf = new SharedInformer({
      rest: new RestClient(kc),
      kind: Namespace,
      namespaces: ["a", "b"],
      transform: (o) => o,
      syncPeriodMs: 0,
      logger: silentLogger(),
    });
    expect(inf.reflectors).toHaveLength(1);
  });
});

describe("deepCopyJSON", () => {
  it("gives a mutable copy of a frozen object that shares nothing with it", () => {
    const frozen = deepFreeze({ a: { b: [1, { c: "d" }] }, n: null, t: true });
    const copy = deepCopyJSON(frozen);
    expect(copy).toEqual(frozen);
    expect(Object.isFrozen(copy.a.b)).toBe(false);
    (copy.a.b[1] as { c: string }).c = "changed";
    expect((frozen.a.b[1] as { c: string }).c).toBe("d");
  });
});

describe("what the store holds and its size", () => {
  it("measures an object as the length of its JSON, and freezes it", () => {
    const values: unknown[] = [
      { a: "x", b: [1, 2.5, true, null, { c: "é" }], d: {}, e: [] },
      cm("ns", "n", "1", { k: "v".repeat(100) }),
      [],
      "plain",
    ];
    for (const v of values) {
      const json = JSON.stringify(v);
      expect(freezeAndMeasure(v)).toBe(json.length);
      if (typeof v === "object") expect(Object.isFrozen(v)).toBe(true);
    }
    // Keys holding undefined are not in the JSON, so not counted.
    expect(freezeAndMeasure({ a: 1, b: undefined })).toBe(JSON.stringify({ a: 1 }).length);
  });

  it("tracks the stored bytes through adds, updates, relists and deletes", () => {
    const inf = informer();
    const f = feed(inf);
    const stored = () => [...inf.store.values()].reduce((n, o) => n + JSON.stringify(o).length, 0);
    f.replace([cm("a", "x", "1", { k: "v" }), cm("a", "y", "2")], "2");
    expect(inf.bytes).toBe(stored());
    f.upsert(cm("a", "x", "3", { k: "a much longer value than before" }));
    expect(inf.bytes).toBe(stored());
    f.upsert(cm("b", "z", "4", { z: "1" }));
    f.remove(cm("a", "y", "5"));
    expect(inf.bytes).toBe(stored());
    f.replace([cm("b", "z", "6")], "6");
    expect(inf.store.size).toBe(1);
    expect(inf.bytes).toBe(stored());
    f.replace([], "7");
    expect(inf.bytes).toBe(0);
  });

  it("keeps only metadata in a metadata-only informer, typed as its kind", () => {
    const inf = new SharedInformer({
      rest: new RestClient(kc),
      kind: metadataOnly(ConfigMap),
      transform: dropManagedFields,
      syncPeriodMs: 0,
      logger: silentLogger(),
    });
    const f = feed(inf);
    // What a server that ignores the PartialObjectMetadata media type would send: a whole object.
    f.replace(
      [{ ...cm("a", "x", "1", { big: "v".repeat(1000) }), apiVersion: "v1", kind: "ConfigMap" }],
      "1",
    );
    f.upsert({
      apiVersion: "meta.k8s.io/v1",
      kind: "PartialObjectMetadata",
      metadata: { namespace: "a", name: "y", resourceVersion: "2" },
    });
    expect(inf.store.get("a/x")).toEqual({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { namespace: "a", name: "x", resourceVersion: "1" },
    });
    expect(inf.store.get("a/y")).toMatchObject({ apiVersion: "v1", kind: "ConfigMap" });
    expect(inf.bytes).toBeLessThan(300);
  });

  it("trims what a user transform returns back to metadata in a metadata-only informer", () => {
    // A kind's transform applies to its full and metadata-only informers alike (byObject is keyed by
    // kind), so one written for full objects may hand back a whole object: here it returns the full
    // ConfigMap it has at hand, with a label of its own. Its metadata is kept, the rest is not.
    const whole = (o: KubernetesObject): KubernetesObject => ({
      ...cm(o.metadata!.namespace!, o.metadata!.name!, o.metadata!.resourceVersion!, {
        big: "v".repeat(1000),
      }),
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { ...dropManagedFields(o).metadata, labels: { seen: "yes" } },
    });
    const inf = new SharedInformer({
      rest: new RestClient(kc),
      kind: metadataOnly(ConfigMap),
      transform: whole,
      syncPeriodMs: 0,
      logger: silentLogger(),
    });
    const f = feed(inf);
    const partial = (name: string, rv: string): KubernetesObject => ({
      apiVersion: "meta.k8s.io/v1",
      kind: "PartialObjectMetadata",
      metadata: { namespace: "a", name, resourceVersion: rv, managedFields: [{ manager: "kubectl" }] },
    });
    f.replace([partial("x", "1")], "1");
    f.upsert(partial("y", "2"));
    for (const name of ["x", "y"]) {
      const stored = inf.store.get(`a/${name}`);
      expect(Object.keys(stored ?? {}).sort()).toEqual(["apiVersion", "kind", "metadata"]);
      expect(stored).toMatchObject({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { labels: { seen: "yes" } },
      });
      expect(stored?.metadata?.managedFields).toBeUndefined();
      expect(Object.isFrozen(stored?.metadata)).toBe(true);
    }
    expect(inf.bytes).toBeLessThan(400);
  });
});
