// Throttling between the cache and the API server (issue 30, item 2): lists, then watches, answered
// 429 with a Retry-After for a while, as API Priority and Fairness answers when a priority level is
// saturated. Every object created or changed meanwhile must reach the cache once the 429s stop, whether
// the initial state is streamed (WatchList) or listed in pages. A real kube-apiserver behind an HTTP
// proxy that refuses (envtest/throttle-proxy.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigMap, Namespace } from "../api/kinds.js";
import { createClient } from "../client/client.js";
import type { Client } from "../client/types.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { startThrottleProxy, type ThrottleProxy } from "../envtest/throttle-proxy.js";
import { eventually } from "../internal/testdata/eventually.js";
import { createLogger } from "../log/logger.js";
import { createCache } from "./cache.js";

const logger = createLogger({ level: process.env.KBTS_TEST_LOG_LEVEL ?? "silent" });
let env: Environment;
let direct: Client;
const proxies: ThrottleProxy[] = [];
const stops: AbortController[] = [];

beforeAll(async () => {
  env = await startEnvironment();
  direct = createClient(env.kubeConfig);
}, 120_000);

afterAll(async () => {
  for (const s of stops) s.abort();
  for (const p of proxies) await p.close();
  await env?.stop();
});

const configMap = (ns: string, name: string, v = "0"): ConfigMap => ({
  metadata: { name, namespace: ns },
  data: { v },
});

describe.each([
  { watchList: true, mode: "streamed" },
  { watchList: false, mode: "paged" },
])("429s with Retry-After, the initial state $mode", ({ watchList, mode }) => {
  it("lose no object created while lists are refused, nor any change made while watches are", async () => {
    const ns = `throttled-${mode}`;
    await direct.create(Namespace, { metadata: { name: ns } });
    for (let i = 0; i < 5; i++) await direct.create(ConfigMap, configMap(ns, `before-${i}`));
    const proxy = await startThrottleProxy(env.config!);
    proxies.push(proxy);
    proxy.throttle("lists", 1);

    const cache = createCache(proxy.kubeConfig(), { logger, namespaces: [ns], reflector: { watchList } });
    const stop = new AbortController();
    stops.push(stop);
    void cache.start(stop.signal);
    const synced = cache.list(ConfigMap, { namespace: ns });
    // Objects created while the cache cannot list, until it has been refused a few times.
    let during = 0;
    while (proxy.refused.lists < 3 || during < 5) {
      await direct.create(ConfigMap, configMap(ns, `during-${during++}`));
      await new Promise((r) => setTimeout(r, 200));
    }
    proxy.throttle("none");
    await synced;
    const names = async () => (await cache.list(ConfigMap, { namespace: ns })).map((c) => c.metadata?.name);
    const all = [
      ...[0, 1, 2, 3, 4].map((i) => `before-${i}`),
      ...[...Array(during).keys()].map((i) => `during-${i}`),
    ];
    await eventually(async () => expect((await names()).sort()).toEqual(all.sort()));
    const reflector = cache.peekInformer(ConfigMap)!.reflectors[0]!;
    expect(reflector.stats.streamedLists).toBe(watchList ? 1 : 0);

    // Now every read is refused, and the watch is cut: it must come back through 429s, from where it
    // was, and deliver every change made meanwhile (the last value of each, and the deletions).
    proxy.throttle("all", 1);
    proxy.dropConnections();
    await eventually(() => expect(proxy.refused.watches).toBeGreaterThanOrEqual(2), 20_000);
    for (let i = 0; i < 5; i++) {
      await direct.update(ConfigMap, configMap(ns, `before-${i}`, "1"));
      await direct.delete(ConfigMap, { namespace: ns, name: `during-${i}` });
    }
    await direct.create(ConfigMap, configMap(ns, "after-throttling"));
    proxy.throttle("none");
    await eventually(async () => {
      const now = await cache.list(ConfigMap, { namespace: ns });
      expect(now.filter((c) => c.metadata?.name?.startsWith("before-")).map((c) => c.data?.v)).toEqual([
        "1",
        "1",
        "1",
        "1",
        "1",
      ]);
      expect(now.map((c) => c.metadata?.name)).toContain("after-throttling");
      expect(now.filter((c) => /^during-[0-4]$/.test(c.metadata?.name ?? ""))).toEqual([]);
    }, 30_000);
    // Resumed from its resourceVersion, not relisted: the 429s cost no second initial state.
    expect(reflector.stats.lists).toBe(1);
  }, 90_000);
});
