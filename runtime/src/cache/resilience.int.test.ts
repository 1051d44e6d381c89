import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigMap, Namespace } from "../api/kinds.js";
import { createClient } from "../client/client.js";
import type { Client } from "../client/types.js";
import { type APIServerProcess, killAPIServer, startSecondAPIServer } from "../envtest/apiserver-restart.js";
import { compactEtcd } from "../envtest/etcd-compaction.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { freePort } from "../envtest/ports.js";
import { eventually } from "../internal/testdata/eventually.js";
import type { Logger } from "../log/types.js";
import { createCache, type InformerCache } from "./cache.js";
import type { InformerEvent } from "./types.js";

// The acceptance scenario of issue 4: kube-apiserver killed and restarted mid-run. The cache must
// reconnect by itself, catch up with every change made while it was down (through a second API
// server on the same etcd, as in an HA control plane), miss nothing, and never end the process.

let env: Environment;
let second: APIServerProcess | undefined;
let restarted: APIServerProcess | undefined;
const stops: AbortController[] = [];

interface Logged {
  level: string;
  msg: string;
  fields: Record<string, unknown>;
}

function recordingLogger(lines: Logged[], bindings: Record<string, unknown> = {}): Logger {
  const at =
    (level: string) =>
    (a: Record<string, unknown> | string, msg?: string): void => {
      if (typeof a === "string") lines.push({ level, msg: a, fields: { ...bindings } });
      else lines.push({ level, msg: msg ?? "", fields: { ...bindings, ...a } });
    };
  return {
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    debug: at("debug"),
    child: (b) => recordingLogger(lines, { ...bindings, ...b }),
  } as Logger;
}

/** Polls until `check` holds (every 100 ms), for at most timeoutMs. */
const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) =>
  eventually(what, async () => (await check()) || undefined, timeoutMs, 100);

beforeAll(async () => {
  env = await startEnvironment();
});

afterAll(async () => {
  for (const ac of stops) ac.abort();
  await restarted?.stop();
  await second?.stop();
  await env?.stop();
});

describe("kube-apiserver killed and restarted mid-run", () => {
  it("reconnects, sees every change made while it was down, and keeps watching", async () => {
    const ns = "outage";
    const direct = createClient(env.kubeConfig);
    await direct.create(Namespace, { metadata: { name: ns } });
    for (let i = 0; i < 10; i++) {
      await direct.create(ConfigMap, { metadata: { name: `keep-${i}`, namespace: ns }, data: { v: "0" } });
    }

    const logs: Logged[] = [];
    const cache: InformerCache = createCache(env.kubeConfig, { logger: recordingLogger(logs) });
    const ac = new AbortController();
    stops.push(ac);
    const running = cache.start(ac.signal);
    const informer = await cache.getInformer(ConfigMap);
    const events: InformerEvent<ConfigMap>[] = [];
    informer.addEventHandler((e) => {
      if (e.object.metadata?.namespace === ns) events.push(e);
    });
    await cache.waitForCacheSync();
    events.length = 0;

    second = await startSecondAPIServer(env, await freePort("127.0.0.1"));
    const other: Client = createClient(second.kubeConfig);

    const killed = await killAPIServer(env);
    // While the first API server is down: creates, updates and deletes through the second one.
    for (let i = 0; i < 5; i++) {
      await other.create(ConfigMap, { metadata: { name: `new-${i}`, namespace: ns }, data: { v: "1" } });
    }
    for (let i = 0; i < 3; i++) {
      const cm = await other.get(ConfigMap, { namespace: ns, name: `keep-${i}` });
      await other.update(ConfigMap, { ...cm, data: { v: "updated" } });
    }
    for (let i = 7; i < 10; i++) await other.delete(ConfigMap, { namespace: ns, name: `keep-${i}` });
    // Let the reflector fail a few times against the dead server before it comes back.
    const reflector = cache.peekInformer(ConfigMap)!.reflectors[0]!;
    // The watch that broke had worked, so it was reopened at once (forgiven); then reconnects fail.
    await until(
      "the reflector to notice the outage",
      () => reflector.stats.failures - reflector.stats.forgiven >= 2,
    );

    restarted = await killed.start();
    const truth = async () =>
      (await other.list(ConfigMap, { namespace: ns }))
        .map((c) => `${c.metadata?.name}=${c.data?.v}`)
        .sort()
        .join(",");
    const cached = async () =>
      (await cache.list(ConfigMap, { namespace: ns }))
        .map((c) => `${c.metadata?.name}=${c.data?.v}`)
        .sort()
        .join(",");
    const expected = await truth();
    await until("the cache to catch up", async () => (await cached()) === expected, 90_000);

    // Every change surfaced as an event with the right type (and the old object on updates).
    const adds = events.filter((e) => e.type === "add").map((e) => e.object.metadata?.name);
    const updates = events.filter((e) => e.type === "update");
    const deletes = events.filter((e) => e.type === "delete").map((e) => e.object.metadata?.name);
    expect(adds.sort()).toEqual(["new-0", "new-1", "new-2", "new-3", "new-4"]);
    expect(deletes.sort()).toEqual(["keep-7", "keep-8", "keep-9"]);
    expect(
      updates
        .map((e) =>
          e.type === "update" ? `${e.object.metadata?.name}:${e.oldObject.data?.v}->${e.object.data?.v}` : "",
        )
        .sort(),
    ).toEqual(["keep-0:0->updated", "keep-1:0->updated", "keep-2:0->updated"]);

    // The restarted server's watch cache begins after the reflector's resourceVersion, so its watch
    // got 410 Gone and it relisted: what vanished meanwhile is reported with deleteStateUnknown.
    expect(reflector.stats.relists).toBeGreaterThanOrEqual(1);
    expect(logs.some((l) => l.msg === "resourceVersion no longer served; relisting")).toBe(true);
    expect(
      events.filter((e) => e.type === "delete").every((e) => e.type === "delete" && e.deleteStateUnknown),
    ).toBe(true);

    // The failures were logged with the kind and attempt number, not swallowed.
    const failures = logs.filter((l) => l.level === "error" && l.fields.component === "reflector");
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(failures[0]?.fields).toMatchObject({ kind: "ConfigMap", attempt: 1 });
    expect(failures[1]?.fields.attempt).toBe(2);

    // And the watch is live again: a change through the restarted server arrives.
    const again = createClient(restarted.kubeConfig);
    await again.create(ConfigMap, { metadata: { name: "after", namespace: ns }, data: { v: "2" } });
    await until("the post-restart change", () =>
      events.some((e) => e.type === "add" && e.object.metadata?.name === "after"),
    );
    ac.abort();
    await running;
  }, 180_000);

  it("restarts a watch that went silent (a frozen server), and catches up once it answers again", async () => {
    const target = restarted!;
    const ns = "stall";
    const viaSecond = createClient(second!.kubeConfig);
    await viaSecond.create(Namespace, { metadata: { name: ns } });
    const logs: Logged[] = [];
    // Watch timeouts of 2–4 s and a 1 s margin: a watch silent for ~5 s is presumed dead.
    const cache = createCache(target.kubeConfig, {
      logger: recordingLogger(logs),
      reflector: { minWatchTimeoutSeconds: 2, stallMarginMs: 1000, backoffMaxMs: 2000 },
    });
    const ac = new AbortController();
    stops.push(ac);
    const running = cache.start(ac.signal);
    await cache.list(ConfigMap, { namespace: ns });
    const reflector = cache.peekInformer(ConfigMap)!.reflectors[0]!;

    // SIGSTOP: the TCP connection stays open but nothing arrives, not even the server's own timeout.
    process.kill(-target.pid, "SIGSTOP");
    try {
      await until(
        "a stall to be detected",
        // A stalled watch that had lived is reopened at once, so this is logged at info, not error.
        () => logs.some((l) => String(l.fields.err).includes("no event or bookmark")),
        30_000,
      );
      await viaSecond.create(ConfigMap, { metadata: { name: "while-frozen", namespace: ns } });
    } finally {
      process.kill(-target.pid, "SIGCONT");
    }
    await until(
      "the change made while frozen",
      async () =>
        (await cache.list(ConfigMap, { namespace: ns })).some((c) => c.metadata?.name === "while-frozen"),
      60_000,
    );
    expect(reflector.stats.failures).toBeGreaterThanOrEqual(1);
    ac.abort();
    await running;
  }, 120_000);
});

describe("relist after 410 Gone", () => {
  let plain: Environment | undefined;
  afterAll(async () => {
    await plain?.stop();
  });

  it("relists when its resourceVersion was compacted away, then keeps watching", async () => {
    // Without the watch cache, watches are served by etcd, which answers 410 for a compacted revision.
    plain = await startEnvironment({ apiServerFlags: { "watch-cache": "false" } });
    const direct = createClient(plain.kubeConfig);
    await direct.create(Namespace, { metadata: { name: "quiet" } });
    await direct.create(Namespace, { metadata: { name: "busy" } });
    await direct.create(ConfigMap, { metadata: { name: "before", namespace: "quiet" } });

    const logs: Logged[] = [];
    const cache = createCache(plain.kubeConfig, {
      logger: recordingLogger(logs),
      namespaces: ["quiet"],
      reflector: { minWatchTimeoutSeconds: 2 },
    });
    const ac = new AbortController();
    stops.push(ac);
    const running = cache.start(ac.signal);
    await cache.list(ConfigMap, { namespace: "quiet" });
    const reflector = cache.peekInformer(ConfigMap)!.reflectors[0]!;
    const listedAt = reflector.stats.lastResourceVersion;

    // Writes elsewhere move etcd past the quiet watch's resourceVersion; compaction then drops it.
    for (let i = 0; i < 5; i++)
      await direct.create(ConfigMap, { metadata: { name: `b${i}`, namespace: "busy" } });
    await compactEtcd(plain.etcdURL!);

    // The open watch ends within its 2–4 s timeout; resuming from the compacted revision gets 410.
    await until("a relist", () => reflector.stats.relists >= 1 && reflector.stats.lists >= 2, 30_000);
    expect(Number(reflector.stats.lastResourceVersion)).toBeGreaterThan(Number(listedAt));
    expect(
      logs.some((l) => l.level === "info" && l.msg === "resourceVersion no longer served; relisting"),
    ).toBe(true);
    expect(reflector.stats.failures).toBe(0);

    await direct.create(ConfigMap, { metadata: { name: "after", namespace: "quiet" } });
    await until("the post-relist change", async () =>
      (await cache.list(ConfigMap, { namespace: "quiet" })).some((c) => c.metadata?.name === "after"),
    );
    ac.abort();
    await running;
  }, 120_000);
});
