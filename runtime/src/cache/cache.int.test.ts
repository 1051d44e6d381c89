import { getEventListeners } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineKind, metadataOnly } from "../api/kind.js";
import { ConfigMap, Namespace, Pod } from "../api/kinds.js";
import { createClient } from "../client/client.js";
import { isNotFound, NotFoundError } from "../client/errors.js";
import { acceptFor } from "../client/metadata.js";
import { mergePatch } from "../client/patch.js";
import type { Client } from "../client/types.js";
import { startFaultProxy } from "../envtest/fault-proxy.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { eventually } from "../internal/testdata/eventually.js";
import type { Logger } from "../log/types.js";
import { CacheNotStartedError, createCache, type InformerCache, KindNotServedError } from "./cache.js";
import type { InformerEvent } from "./types.js";

let env: Environment;
let direct: Client;
const stops: AbortController[] = [];

const quiet: Logger = {
  info: () => {},
  warn: () => {},
  debug: () => {},
  error: () => {},
  child: () => quiet,
};

function started(options: Parameters<typeof createCache>[1] = {}): InformerCache {
  const cache = createCache(env.kubeConfig, { logger: quiet, ...options });
  const ac = new AbortController();
  stops.push(ac);
  void cache.start(ac.signal);
  return cache;
}

/** Polls until `check` holds (every 50 ms), for at most timeoutMs. */
const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) =>
  eventually(what, async () => (await check()) || undefined, timeoutMs, 50);

const pod = (ns: string, name: string, labels: Record<string, string> = {}, nodeName?: string): Pod => ({
  metadata: { name, namespace: ns, labels },
  spec: { containers: [{ name: "c", image: "busybox" }], nodeName },
});

beforeAll(async () => {
  env = await startEnvironment();
  direct = createClient(env.kubeConfig);
  for (const name of ["c1", "c2", "c3", "c4"]) await direct.create(Namespace, { metadata: { name } });
});

afterAll(async () => {
  for (const ac of stops) ac.abort();
  await env?.stop();
});

describe("informer events", () => {
  it("delivers add, update with the old object, and delete, for changes made through the API", async () => {
    const cache = started();
    const informer = await cache.getInformer(ConfigMap);
    const events: InformerEvent<ConfigMap>[] = [];
    informer.addEventHandler((e) => {
      if (e.object.metadata?.namespace === "c1") events.push(e);
    });
    await cache.waitForCacheSync();
    expect(informer.hasSynced()).toBe(true);
    // Streamed by WatchList, unless this file runs as cache.paged-list.int.test.ts.
    const streamed = process.env.KBTS_WATCH_LIST === "false" ? 0 : 1;
    expect(cache.peekInformer(ConfigMap)?.reflectors[0]?.stats).toMatchObject({
      lists: 1,
      streamedLists: streamed,
    });

    const cm = await direct.create(ConfigMap, { metadata: { name: "e", namespace: "c1" }, data: { v: "1" } });
    await direct.update(ConfigMap, { ...cm, data: { v: "2" } });
    await direct.delete(ConfigMap, cm);
    await until("three events", () => events.length >= 3);

    expect(events.map((e) => e.type)).toEqual(["add", "update", "delete"]);
    const [add, update, del] = events;
    expect(add?.type === "add" && add.isInInitialList).toBe(false);
    expect(update?.type === "update" && [update.oldObject.data?.v, update.object.data?.v]).toEqual([
      "1",
      "2",
    ]);
    expect(del?.type === "delete" && del.deleteStateUnknown).toBe(false);
    // Objects carry their type and no managedFields (the default transform).
    expect(add?.object).toMatchObject({ apiVersion: "v1", kind: "ConfigMap" });
    expect(add?.object.metadata?.managedFields).toBeUndefined();
  });

  it("replays the current state to a handler added after sync, as initial-list adds", async () => {
    await direct.create(ConfigMap, { metadata: { name: "pre-existing", namespace: "c2" } });
    const cache = started();
    const informer = await cache.getInformer(ConfigMap);
    await cache.waitForCacheSync();
    const seen: string[] = [];
    const off = informer.addEventHandler((e) => {
      if (e.type === "add" && e.object.metadata?.namespace === "c2")
        seen.push(`${e.object.metadata.name}:${e.isInInitialList}`);
    });
    expect(seen).toEqual(["pre-existing:true"]);
    off();
  });

  it("receives bookmarks that move its resourceVersion past changes it does not watch", async () => {
    // The API server bookmarks a watch ~2 s before its timeout (short here) when newer changes of the
    // kind exist that the watch was not sent (here: another namespace), so a reconnect resumes from
    // there instead of replaying or hitting 410.
    const cache = started({ namespaces: ["c1"], reflector: { minWatchTimeoutSeconds: 4 } });
    await cache.getInformer(ConfigMap);
    await cache.waitForCacheSync();
    const reflector = cache.peekInformer(ConfigMap)!.reflectors[0]!;
    const listed = Number(reflector.stats.lastResourceVersion);
    let n = 0;
    await until(
      "a bookmark",
      async () => {
        await direct.create(ConfigMap, { metadata: { name: `elsewhere-${n++}`, namespace: "c3" } });
        return reflector.stats.bookmarks > 0;
      },
      30_000,
    );
    expect(Number(reflector.stats.lastResourceVersion)).toBeGreaterThan(listed);
    expect(reflector.stats.events).toBe(0);
    // The watch keeps going after the server ends it: several watches, no failures, no relist.
    await until("a second watch", () => reflector.stats.watches >= 2, 30_000);
    expect(reflector.stats.failures).toBe(0);
    expect(reflector.stats.lists).toBe(1);
  });
});

describe("connections", () => {
  it("takes one connection per informer: its initial state and its watch share it", async () => {
    const ns = "one-connection";
    await direct.create(Namespace, { metadata: { name: ns } });
    const proxy = await startFaultProxy(env.config!.host);
    const cache = createCache(proxy.kubeConfigFor(env.kubeConfig), { logger: quiet, namespaces: [ns] });
    const ac = new AbortController();
    stops.push(ac);
    void cache.start(ac.signal);
    try {
      const configMaps = await cache.getInformer(ConfigMap);
      await cache.getInformer(Pod);
      await cache.waitForCacheSync();
      const reflectors = [ConfigMap, Pod].map((k) => cache.peekInformer(k)!.reflectors[0]!);
      await until("both watches to run", () => reflectors.every((r) => r.stats.watches > 0));
      // The watches are open: a change reaches the cache through them.
      let seen = false;
      configMaps.addEventHandler((e) => {
        if (e.object.metadata?.name === "after-sync") seen = true;
      });
      await direct.create(ConfigMap, { metadata: { name: "after-sync", namespace: ns } });
      await until("the change", () => seen);
      expect({ accepted: proxy.accepted, open: proxy.open }).toEqual({ accepted: 2, open: 2 });
    } finally {
      ac.abort();
      await proxy.close();
    }
  });
});

describe("resync", () => {
  it("re-delivers every object as an update with the same old and new object each period", async () => {
    await direct.create(ConfigMap, { metadata: { name: "resynced", namespace: "c2" } });
    const cache = started({ syncPeriodMs: 1000 });
    const informer = await cache.getInformer(ConfigMap);
    const resyncs: InformerEvent<ConfigMap>[] = [];
    informer.addEventHandler((e) => {
      if (e.type === "update" && e.object.metadata?.name === "resynced") resyncs.push(e);
    });
    await until("two resyncs", () => resyncs.length >= 2, 10_000);
    expect(resyncs.every((e) => e.type === "update" && e.oldObject === e.object)).toBe(true);
  });
});

describe("cache-backed client", () => {
  it("refuses reads before the cache is started", async () => {
    const cache = createCache(env.kubeConfig, { logger: quiet });
    await expect(cache.get(ConfigMap, { namespace: "c1", name: "x" })).rejects.toBeInstanceOf(
      CacheNotStartedError,
    );
  });

  it("starts a kind's informer on first read and waits for its sync", async () => {
    await direct.create(Pod, pod("c3", "first-read"));
    const cache = started();
    const client = createClient(env.kubeConfig, { cache });
    expect(cache.peekInformer(Pod)).toBeUndefined();
    const got = await client.get(Pod, { namespace: "c3", name: "first-read" });
    expect(got).toMatchObject({ apiVersion: "v1", kind: "Pod", metadata: { name: "first-read" } });
    expect(cache.peekInformer(Pod)?.hasSynced()).toBe(true);
    await expect(client.get(Pod, { namespace: "c3", name: "nope" })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("reads kinds listed as uncached straight from the API server", async () => {
    await direct.create(ConfigMap, { metadata: { name: "live", namespace: "c3" } });
    const cache = started();
    const client = createClient(env.kubeConfig, { cache, uncached: [ConfigMap] });
    expect((await client.get(ConfigMap, { namespace: "c3", name: "live" })).metadata?.name).toBe("live");
    expect(cache.peekInformer(ConfigMap)).toBeUndefined();
  });

  it("hands out copies: mutating a read object leaves the cache alone, and it can be sent back", async () => {
    await direct.create(ConfigMap, { metadata: { name: "copy", namespace: "c3" }, data: { v: "1" } });
    const cache = started();
    const client = createClient(env.kubeConfig, { cache });
    const a = await client.get(ConfigMap, { namespace: "c3", name: "copy" });
    a.data = { v: "mutated" };
    const b = await client.get(ConfigMap, { namespace: "c3", name: "copy" });
    expect(b.data).toEqual({ v: "1" });
    const updated = await client.update(ConfigMap, a);
    expect(updated.data).toEqual({ v: "mutated" });
    await until("the cache to see the update", async () => {
      return (await client.get(ConfigMap, { namespace: "c3", name: "copy" })).data?.v === "mutated";
    });
  });

  it("lists without copying when asked (unsafeDisableDeepCopy): the cache's own frozen objects", async () => {
    await direct.create(ConfigMap, { metadata: { name: "shared", namespace: "c4" }, data: { v: "1" } });
    const cache = started();
    const client = createClient(env.kubeConfig, { cache });
    const [a] = await client.list(ConfigMap, { namespace: "c4", unsafeDisableDeepCopy: true });
    const [b] = await client.list(ConfigMap, { namespace: "c4", unsafeDisableDeepCopy: true });
    expect(a?.data).toEqual({ v: "1" });
    expect(a).toBe(b);
    expect(() => {
      if (a?.data) a.data.v = "mutated";
    }).toThrow(TypeError);
    const [copy] = await client.list(ConfigMap, { namespace: "c4" });
    expect(copy).not.toBe(a);
    expect(Object.isFrozen(copy)).toBe(false);
    expect(copy?.data).toEqual({ v: "1" });
  });

  it("lists by namespace and label selector in memory", async () => {
    await Promise.all([
      direct.create(Pod, pod("c1", "web-1", { app: "web", tier: "front" })),
      direct.create(Pod, pod("c1", "web-2", { app: "web", tier: "back" })),
      direct.create(Pod, pod("c2", "web-3", { app: "web", tier: "front" })),
      direct.create(Pod, pod("c2", "db-1", { app: "db" })),
    ]);
    const cache = started();
    const client = createClient(env.kubeConfig, { cache });
    const names = (ps: Pod[]) => ps.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`).sort();
    expect(names(await client.list(Pod, { labelSelector: "app=web" }))).toEqual([
      "c1/web-1",
      "c1/web-2",
      "c2/web-3",
    ]);
    expect(names(await client.list(Pod, { namespace: "c1", labelSelector: { tier: "front" } }))).toEqual([
      "c1/web-1",
    ]);
    expect(
      names(
        await client.list(Pod, {
          labelSelector: {
            matchExpressions: [
              { key: "app", operator: "In", values: ["db", "web"] },
              { key: "tier", operator: "DoesNotExist" },
            ],
          },
        }),
      ),
    ).toEqual(["c2/db-1"]);
    expect(await client.list(Pod, { labelSelector: "app=web", limit: 2 })).toHaveLength(2);
    await expect(client.list(Pod, { continue: "x" })).rejects.toThrow(/continue/);
  });

  it("serves matchingFields from field indexes, per namespace and across namespaces", async () => {
    await Promise.all([
      direct.create(Pod, pod("c1", "on-a", {}, "node-a")),
      direct.create(Pod, pod("c2", "on-a-too", {}, "node-a")),
      direct.create(Pod, pod("c2", "on-b", { pick: "me" }, "node-b")),
    ]);
    const cache = started();
    await cache.indexField(Pod, "spec.nodeName", (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []));
    const client = createClient(env.kubeConfig, { cache });
    const names = (ps: Pod[]) => ps.map((p) => p.metadata?.name).sort();
    expect(names(await client.list(Pod, { matchingFields: { "spec.nodeName": "node-a" } }))).toEqual([
      "on-a",
      "on-a-too",
    ]);
    expect(
      names(await client.list(Pod, { namespace: "c2", matchingFields: { "spec.nodeName": "node-a" } })),
    ).toEqual(["on-a-too"]);
    expect(
      names(await client.list(Pod, { fieldSelector: "spec.nodeName=node-b", labelSelector: "pick=me" })),
    ).toEqual(["on-b"]);
    expect(await client.list(Pod, { matchingFields: { "spec.nodeName": "node-z" } })).toEqual([]);
    await expect(client.list(Pod, { matchingFields: { "status.phase": "Running" } })).rejects.toThrow(
      /no index for field "status.phase"/,
    );
    // An index added later, when the informer already holds objects, indexes them too.
    await cache.indexField(Pod, "metadata.name", (p) => [p.metadata?.name ?? ""]);
    expect(names(await client.list(Pod, { matchingFields: { "metadata.name": "on-b" } }))).toEqual(["on-b"]);
  });

  it("restricted to namespaces: sees only those, and refuses reads elsewhere", async () => {
    await direct.create(ConfigMap, { metadata: { name: "in", namespace: "c1" } });
    await direct.create(ConfigMap, { metadata: { name: "out", namespace: "c3" } });
    const cache = started({ namespaces: ["c1", "c2"] });
    const client = createClient(env.kubeConfig, { cache });
    const all = await client.list(ConfigMap);
    expect(all.every((c) => ["c1", "c2"].includes(c.metadata?.namespace ?? ""))).toBe(true);
    expect(all.map((c) => c.metadata?.name)).toContain("in");
    await expect(client.get(ConfigMap, { namespace: "c3", name: "out" })).rejects.toThrow(
      /unknown namespace/,
    );
    await expect(client.list(ConfigMap, { namespace: "c3" })).rejects.toThrow(/unknown namespace/);
    expect(cache.peekInformer(ConfigMap)?.reflectors).toHaveLength(2);
    // Cluster-scoped kinds are still watched cluster-wide.
    expect((await client.list(Namespace)).length).toBeGreaterThanOrEqual(4);
  });

  it("one reflector per namespace adds no abort listener to the cache's signal per namespace", async () => {
    // Every request listens for its signal's abort: twelve reflectors on the stop signal itself would pile
    // up listeners there past Node's limit of ten (a MaxListenersExceededWarning per cache).
    const namespaces = Array.from({ length: 12 }, (_, i) => `many-${i}`);
    const cache = createCache(env.kubeConfig, { logger: quiet, namespaces });
    const ac = new AbortController();
    stops.push(ac);
    void cache.start(ac.signal);
    await cache.getInformer(ConfigMap);
    const reflectors = cache.peekInformer(ConfigMap)?.reflectors ?? [];
    expect(reflectors).toHaveLength(12);
    await until("the twelve watches to run", () => reflectors.every((r) => r.stats.watches > 0));
    expect(getEventListeners(ac.signal, "abort").length).toBeLessThan(namespaces.length);
  });

  it("applies per-kind transforms instead of the default", async () => {
    await direct.create(ConfigMap, {
      metadata: { name: "big", namespace: "c2" },
      data: { payload: "x".repeat(1000) },
    });
    const cache = started({
      transforms: {
        "v1/ConfigMap": (obj) => {
          const cm = obj as ConfigMap;
          delete cm.data;
          return cm;
        },
      },
    });
    const client = createClient(env.kubeConfig, { cache });
    const got = await client.get(ConfigMap, { namespace: "c2", name: "big" });
    expect(got.data).toBeUndefined();
    // The default transform was replaced, so managedFields stay.
    expect(got.metadata?.managedFields?.length).toBeGreaterThan(0);
  });

  it("holds only what per-kind selectors let through", async () => {
    await Promise.all([
      direct.create(ConfigMap, { metadata: { name: "sel-yes", namespace: "c1", labels: { cached: "yes" } } }),
      direct.create(ConfigMap, { metadata: { name: "sel-no", namespace: "c1", labels: { cached: "no" } } }),
    ]);
    const cache = started({
      selectors: {
        "v1/ConfigMap": { labelSelector: { cached: "yes" }, fieldSelector: "metadata.namespace=c1" },
      },
    });
    const client = createClient(env.kubeConfig, { cache });
    expect((await client.list(ConfigMap)).map((c) => c.metadata?.name)).toEqual(["sel-yes"]);
    // Created in this order, so by the time "sel-later" arrives, "sel-elsewhere" would have too.
    await direct.create(ConfigMap, {
      metadata: { name: "sel-elsewhere", namespace: "c2", labels: { cached: "yes" } },
    });
    await direct.create(ConfigMap, {
      metadata: { name: "sel-later", namespace: "c1", labels: { cached: "yes" } },
    });
    await until("the later match", async () =>
      (await client.list(ConfigMap)).some((c) => c.metadata?.name === "sel-later"),
    );
    expect((await client.list(ConfigMap)).map((c) => c.metadata?.name).sort()).toEqual([
      "sel-later",
      "sel-yes",
    ]);
  });

  it("fails fast, and not as NotFound, when the kind is not served", async () => {
    const Missing = defineKind({
      group: "nope.kbts.io",
      version: "v1",
      kind: "Missing",
      plural: "missings",
      namespaced: true,
    });
    const cache = started({ readSyncTimeoutMs: 60_000 });
    const t0 = Date.now();
    const err = await cache.get(Missing, { namespace: "c1", name: "x" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KindNotServedError);
    expect(isNotFound(err)).toBe(false);
    expect((err as Error).message).toMatch(
      /does not serve Missing.nope.kbts.io nope.kbts.io\/v1.*install its CRD/,
    );
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it("waitForCacheSync is false when its signal aborts before sync", async () => {
    const cache = createCache(env.kubeConfig, { logger: quiet });
    await cache.getInformer(Pod); // created but never started
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    await expect(cache.waitForCacheSync(ac.signal)).resolves.toBe(false);
  });
});

describe("metadata-only informers", () => {
  it("list and watch PartialObjectMetadata, apart from the kind's full informer", async () => {
    await direct.create(Pod, pod("c3", "meta-1", { role: "trigger" }));
    const cache = started();
    const informer = await cache.getInformer(metadataOnly(Pod));
    const events: string[] = [];
    informer.addEventHandler((e) => {
      if (e.object.metadata.namespace === "c3") events.push(`${e.type} ${e.object.metadata.name}`);
    });
    const listed = await cache.list(metadataOnly(Pod), { namespace: "c3", labelSelector: "role=trigger" });
    expect(listed.map((p) => p.metadata.name)).toEqual(["meta-1"]);
    expect(listed[0]).toEqual({
      apiVersion: "v1",
      kind: "Pod",
      metadata: expect.objectContaining({ name: "meta-1", labels: { role: "trigger" } }),
    });
    expect(listed[0]?.metadata.managedFields).toBeUndefined();
    await direct.create(Pod, pod("c3", "meta-2"));
    await until("the watch event", () => events.includes("add meta-2"));
    const got = await cache.get(metadataOnly(Pod), { namespace: "c3", name: "meta-2" });
    expect(Object.keys(got).sort()).toEqual(["apiVersion", "kind", "metadata"]);
    // The full informer is a second one; both are reported, by type.
    expect(cache.peekInformer(Pod)).toBeUndefined();
    const full = await cache.get(Pod, { namespace: "c3", name: "meta-2" });
    expect(full.spec?.containers[0]?.image).toBe("busybox");
    const sizes = cache.cacheSizes().filter((s) => s.kind === "Pod");
    expect(sizes.map((s) => s.type).sort()).toEqual(["full", "metadata"]);
    const [meta, whole] = [sizes.find((s) => s.type === "metadata")!, sizes.find((s) => s.type === "full")!];
    expect(meta.objects).toBe(whole.objects);
    expect(meta.bytes).toBeLessThan(whole.bytes);
    // What the reflector asks for is what the API server sends: no specs on the wire either.
    const page = await cache.rest.request<{ kind: string; items: object[] }>({
      method: "GET",
      path: "/api/v1/namespaces/c3/pods",
      accept: acceptFor(metadataOnly(Pod), "list"),
    });
    expect(page.kind).toBe("PartialObjectMetadataList");
    expect(page.items.every((i) => !("spec" in i))).toBe(true);
    // An uncached client reads metadata-only the same way.
    const uncached = await direct.get(metadataOnly(Pod), { namespace: "c3", name: "meta-2" });
    expect(Object.keys(uncached).sort()).toEqual(["apiVersion", "kind", "metadata"]);
    expect(uncached.kind).toBe("Pod");
    expect((await direct.list(metadataOnly(Pod), { namespace: "c3" })).every((p) => !("spec" in p))).toBe(
      true,
    );
    // Writes: a patch of metadata answers with metadata; a replace from metadata alone is refused.
    const patched = await direct.patch(
      metadataOnly(Pod),
      uncached,
      mergePatch({ metadata: { labels: { seen: "yes" } } }),
    );
    expect(patched).not.toHaveProperty("spec");
    expect(patched.metadata.labels).toEqual({ seen: "yes" });
    await expect(direct.update(metadataOnly(Pod), patched)).rejects.toThrow(
      /cannot update Pod "meta-2" from its metadata only: use patch/,
    );
    const after = await direct.get(Pod, { namespace: "c3", name: "meta-2" });
    expect(after.spec?.containers).toHaveLength(1);
    expect(after.metadata?.labels).toEqual({ seen: "yes" });
  });
});
