// Network faults between the cache and the API server (issue 19, items 3 and 4), through a TCP proxy
// that resets or freezes connections, against a real kube-apiserver.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigMap, Namespace } from "../api/kinds.js";
import { createClient } from "../client/client.js";
import type { Client } from "../client/types.js";
import { type FaultProxy, startFaultProxy } from "../envtest/fault-proxy.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { createLogger } from "../log/logger.js";
import { createManager } from "../manager/manager.js";
import { createCache } from "./cache.js";

const logger = createLogger({ level: process.env.KBTS_TEST_LOG_LEVEL ?? "silent" });
let env: Environment;
let direct: Client;
const proxies: FaultProxy[] = [];
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

async function proxy(): Promise<FaultProxy> {
  const p = await startFaultProxy(env.config!.host);
  proxies.push(p);
  return p;
}

/** Polls until `check` holds; returns the time it took, or throws after `timeoutMs`. */
async function within(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - start;
}

describe("connections reset every 3 s", () => {
  it("a watch that worked is reopened at once: the cache is current within 2 s of the last reset", async () => {
    const ns = "resets";
    await direct.create(Namespace, { metadata: { name: ns } });
    await direct.create(ConfigMap, { metadata: { name: "counter", namespace: ns }, data: { n: "0" } });
    const p = await proxy();
    const cache = createCache(p.kubeConfigFor(env.kubeConfig), { logger, namespaces: [ns] });
    const stop = new AbortController();
    stops.push(stop);
    void cache.start(stop.signal);
    await cache.list(ConfigMap, { namespace: ns });
    const reflector = cache.peekInformer(ConfigMap)!.reflectors[0]!;

    // ~21 s of resets every 3 s under a steady trickle of changes: without forgiveness the retry
    // delay doubles on every reset (0.8 → 1.6 → 3.2 → 6.4 → 12.8 s) and the cache falls behind.
    p.resetEvery(3_000);
    let n = 0;
    const until = Date.now() + 21_000;
    while (Date.now() < until) {
      const cm = await direct.get(ConfigMap, { namespace: ns, name: "counter" });
      await direct.update(ConfigMap, { ...cm, data: { n: String(++n) } });
      await new Promise((r) => setTimeout(r, 250));
    }
    p.stopResets();
    p.resetAll(); // the last reset
    const lastReset = Date.now();
    // A change right after it: a reflector still backing off would not see it for seconds.
    const cm = await direct.get(ConfigMap, { namespace: ns, name: "counter" });
    await direct.update(ConfigMap, { ...cm, data: { n: String(++n) } });
    const want = String(n);
    await within("the cache to be current after the last reset", 2_000, async () => {
      const cm = (await cache.list(ConfigMap, { namespace: ns })).find((c) => c.metadata?.name === "counter");
      return cm?.data?.n === want;
    });
    expect(Date.now() - lastReset).toBeLessThan(2_000);
    expect(reflector.stats.forgiven).toBeGreaterThanOrEqual(5);
  }, 60_000);
});

describe("frozen connections", () => {
  it("a frozen watch is found and replaced: the cache is current within 45 s, and /readyz reports the stall meanwhile", async () => {
    const ns = "frozen";
    await direct.create(Namespace, { metadata: { name: ns } });
    await direct.create(ConfigMap, { metadata: { name: "state", namespace: ns }, data: { v: "0" } });
    const p = await proxy();
    // The whole operator sits behind the proxy, as behind a load balancer.
    const mgr = createManager({
      kubeConfig: p.kubeConfigFor(env.kubeConfig),
      logger,
      metricsBindAddress: "0",
      healthProbeBindAddress: "127.0.0.1:0",
      cache: { namespaces: [ns] },
    });
    await mgr.getCache().getInformer(ConfigMap);
    const stop = new AbortController();
    stops.push(stop);
    // lint-tests: allow swallowed-error — a background manager, stopped at teardown: the test's waits fail if it dies
    void mgr.start(stop.signal).catch(() => {});
    await mgr.elected();
    const readyz = async () => {
      const res = await fetch(`http://127.0.0.1:${mgr.httpAddress("healthProbe")?.port}/readyz`);
      return { status: res.status, body: await res.text() };
    };
    const cached = async () =>
      (await mgr.getCache().list(ConfigMap, { namespace: ns })).find((c) => c.metadata?.name === "state")
        ?.data?.v;
    const set = async (v: string) => {
      const cm = await direct.get(ConfigMap, { namespace: ns, name: "state" });
      await direct.update(ConfigMap, { ...cm, data: { v } });
    };
    await within("ready", 30_000, async () => (await readyz()).status === 200);
    await set("1");
    await within("the first change", 10_000, async () => (await cached()) === "1");

    // Every open connection freezes for good (no bytes, never closed); new connections are
    // black-holed until /readyz has reported the stall (at least 25 s, at most 40 s), then pass: a dead
    // load balancer path, and a fresh one later. The detector's timers (15 s of silence, then a 5 s
    // probe) run late on a loaded machine; a path healed at a fixed 25 s could let the probe through
    // and the watch reconnect within one poll, so the report came and went unseen.
    p.freezeOpen();
    p.blackhole(true);
    const frozenAt = Date.now();
    await set("2");
    let stallReported: string | undefined;
    const took = await within("the cache to be current after the freeze", 45_000, async () => {
      const frozenFor = Date.now() - frozenAt;
      if ((stallReported !== undefined && frozenFor > 25_000) || frozenFor > 40_000) p.blackhole(false);
      const r = await readyz();
      if (r.status !== 200 && r.body.includes("[-]watches")) stallReported ??= `${Date.now() - frozenAt} ms`;
      return (await cached()) === "2";
    });
    expect(took).toBeLessThan(45_000);
    expect(stallReported, "/readyz never reported the stalled watch").toBeDefined();
    await within("ready again", 20_000, async () => (await readyz()).status === 200);
  }, 120_000);
});
