// Read-your-own-writes against a real API server (issue 19, item 1; issue 17, item 3): the race that
// left GPUBudgets wrong with no fault at all, reproduced with a controller shaped like the scaffold's.
// Own-write suppression and hot-loop detection (issue 17, items 2 and 3) share this control plane.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineKind } from "../api/kind.js";
import { Namespace, Pod } from "../api/kinds.js";
import type { KubernetesObject } from "../api/meta.js";
import { controllerManagedBy } from "../builder/builder.js";
import { createCache } from "../cache/cache.js";
import { type FaultProxy, startFaultProxy } from "../envtest/fault-proxy.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { enqueueRequestsFromMapFunc } from "../handler/enqueue.js";
import { schemalessCRD } from "../internal/testdata/crd.js";
import { eventually } from "../internal/testdata/eventually.js";
import { createLogger } from "../log/logger.js";
import { createManager } from "../manager/manager.js";
import type { Manager } from "../manager/types.js";
import { controllerRuntimeReconcileHotLoops } from "../metrics/controller.js";
import { generationChangedPredicate } from "../predicate/predicate.js";
import { createClient } from "./client.js";
import { compareResourceVersions } from "./own-writes.js";
import type { Client } from "./types.js";

interface Budget extends KubernetesObject {
  spec: { maxGPUs: number };
  status?: {
    allocatedGPUs?: number;
    other?: string;
    reconciled?: number;
    lastUpdated?: string;
    observed?: number;
  };
}
const Budget = defineKind<Budget>({
  group: "ryow.kbts.io",
  version: "v1",
  kind: "Budget",
  plural: "budgets",
  namespaced: true,
});

const budgetCRD = schemalessCRD({
  group: "ryow.kbts.io",
  kind: "Budget",
  plural: "budgets",
  scope: "Namespaced",
});

const logger = createLogger({ level: process.env.KBTS_TEST_LOG_LEVEL ?? "silent" });
let env: Environment;
let direct: Client;
const stops: AbortController[] = [];
const proxies: FaultProxy[] = [];

beforeAll(async () => {
  env = await startEnvironment({ crds: [budgetCRD] });
  direct = createClient(env.kubeConfig);
}, 120_000);

afterAll(async () => {
  for (const s of stops) s.abort();
  await new Promise((r) => setTimeout(r, 200));
  for (const p of proxies) await p.close();
  await env?.stop();
});

function gpuPod(namespace: string, name: string): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace },
    spec: {
      containers: [
        {
          name: "main",
          image: "registry.k8s.io/pause:3.10",
          resources: { requests: { "nvidia.com/gpu": "1" }, limits: { "nvidia.com/gpu": "1" } },
        },
      ],
    },
  };
}

/** GPUs held by the pods of a list: what the scaffold's budgetUsage counts (finished pods hold none). */
function allocated(pods: Pod[]): number {
  let n = 0;
  for (const p of pods) {
    if (p.status?.phase === "Succeeded" || p.status?.phase === "Failed") continue;
    for (const c of p.spec?.containers ?? []) n += Number(c.resources?.requests?.["nvidia.com/gpu"] ?? 0);
  }
  return n;
}

async function setPhase(namespace: string, name: string, phase: "Running" | "Succeeded"): Promise<void> {
  const pod = await direct.get(Pod, { namespace, name });
  await direct.status().update(Pod, { ...pod, status: { ...pod.status, phase } });
}

/**
 * The scaffold's shape: read the budget from the cache, count from the cached pods, and skip the status
 * write when the computed status equals the cached one; For(Budget) drops status-only events.
 */
function startBudgetController(namespace: string, watchLagMs: number): Promise<Manager> {
  return startFaultProxy(env.config!.host).then((proxy) => {
    proxies.push(proxy);
    // The cache lags the API server as it does under load (the operator watched 2,000+
    // pods): its watches go through a proxy that delays every chunk; writes go direct.
    proxy.setLatency(watchLagMs);
    return budgetController(namespace, proxy);
  });
}

function budgetController(namespace: string, proxy: FaultProxy): Manager {
  const mgr = createManager({
    kubeConfig: env.kubeConfig,
    logger,
    metricsBindAddress: "0",
    healthProbeBindAddress: "0",
    cache: { namespaces: [namespace] },
    newCache: (kc, options) => createCache(proxy.kubeConfigFor(kc), options),
  });
  const client = mgr.getClient();
  controllerManagedBy(mgr)
    .for(Budget, { predicates: [generationChangedPredicate()] })
    .watches(
      Pod,
      enqueueRequestsFromMapFunc(async (pod) =>
        (await client.list(Budget, { namespace: pod.metadata?.namespace })).map((b) => ({
          namespace: b.metadata?.namespace,
          name: b.metadata?.name ?? "",
        })),
      ),
    )
    .named(`budget-${namespace}`)
    .complete({
      async reconcile(req) {
        const budget = await client.get(Budget, { namespace: req.namespace, name: req.name });
        const count = allocated(await client.list(Pod, { namespace: req.namespace }));
        if (budget.status?.allocatedGPUs === count) return undefined; // the no-op-write optimisation
        await client.status().update(Budget, { ...budget, status: { allocatedGPUs: count } });
        return undefined;
      },
    });
  const stop = new AbortController();
  stops.push(stop);
  // lint-tests: allow swallowed-error — a background manager, stopped at teardown: the test's waits fail if it dies
  mgr.start(stop.signal).catch(() => {});
  return mgr;
}

async function statusOf(namespace: string): Promise<number | undefined> {
  return (await direct.get(Budget, { namespace, name: "gpus" })).status?.allocatedGPUs;
}

/** Polls until the budget's status is `want`; false if it is not by the deadline. */
async function becomes(namespace: string, want: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if ((await statusOf(namespace)) === want) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("read-your-own-writes", () => {
  it("a cached read right after a write returns that write's resourceVersion, even when someone else wrote since", async () => {
    const ns = "ryow-read";
    await direct.create(Namespace, { metadata: { name: ns } });
    const mgr = createManager({
      kubeConfig: env.kubeConfig,
      logger,
      metricsBindAddress: "0",
      healthProbeBindAddress: "0",
    });
    const stop = new AbortController();
    stops.push(stop);
    // lint-tests: allow swallowed-error — a background manager, stopped at teardown: the test's waits fail if it dies
    mgr.start(stop.signal).catch(() => {});
    const client = mgr.getClient();
    await client.create(Budget, { metadata: { name: "b", namespace: ns }, spec: { maxGPUs: 1 } } as Budget);
    await client.get(Budget, { namespace: ns, name: "b" }); // the informer is synced from here on
    for (let i = 0; i < 20; i++) {
      const read = await client.get(Budget, { namespace: ns, name: "b" });
      const written = await client.status().update(Budget, { ...read, status: { allocatedGPUs: i } });
      const again = await client.get(Budget, { namespace: ns, name: "b" });
      expect(again.status?.allocatedGPUs).toBe(i);
      expect(
        compareResourceVersions(
          again.metadata?.resourceVersion ?? "",
          written.metadata?.resourceVersion ?? "",
        ),
      ).toBeGreaterThanOrEqual(0);
    }
    // Someone else writes after us: the read is at least our write, and soon theirs.
    const ours = await client.status().update(Budget, {
      ...(await client.get(Budget, { namespace: ns, name: "b" })),
      status: { allocatedGPUs: 100 },
    });
    const theirs = await direct.status().update(Budget, { ...ours, status: { allocatedGPUs: 200 } });
    const read = await client.get(Budget, { namespace: ns, name: "b" });
    expect([100, 200]).toContain(read.status?.allocatedGPUs);
    expect(
      compareResourceVersions(read.metadata?.resourceVersion ?? "", ours.metadata?.resourceVersion ?? ""),
    ).toBeGreaterThanOrEqual(0);
    const end = Date.now() + 10_000;
    while ((await client.get(Budget, { namespace: ns, name: "b" })).status?.allocatedGPUs !== 200) {
      if (Date.now() > end)
        throw new Error(`the cache never showed the other writer's ${theirs.metadata?.resourceVersion}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  });

  it("a burst of cached lists behind a lagging cache shares one wait, and each list shows every write", async () => {
    const ns = "ryow-burst";
    await direct.create(Namespace, { metadata: { name: ns } });
    const proxy = await startFaultProxy(env.config!.host);
    proxies.push(proxy);
    const cache = createCache(proxy.kubeConfigFor(env.kubeConfig), { logger });
    const stop = new AbortController();
    stops.push(stop);
    // lint-tests: allow swallowed-error — a background cache, stopped at teardown: the lists below fail if it dies
    cache.start(stop.signal).catch(() => {});
    // Counts the cache waits the client starts (the cache itself, otherwise untouched).
    let waits = 0;
    const counted = new Proxy(cache, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop === "waitForResourceVersion")
          return (...args: Parameters<typeof cache.waitForResourceVersion>) => {
            waits++;
            return target.waitForResourceVersion(...args);
          };
        if (prop === "waitForWatchProgress")
          return (...args: Parameters<typeof cache.waitForWatchProgress>) => {
            waits++;
            return target.waitForWatchProgress(...args);
          };
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const client = createClient(env.kubeConfig, { cache: counted, readYourOwnWrites: { timeoutMs: 10_000 } });
    const budgets = 40;
    for (let i = 0; i < budgets; i++)
      await direct.create(Budget, {
        metadata: { name: `b${i}`, namespace: ns },
        spec: { maxGPUs: 1 },
      } as Budget);
    expect(await client.list(Budget, { namespace: ns })).toHaveLength(budgets); // synced
    // The cache now lags (as at start-up under load); the client writes every budget's status.
    proxy.setLatency(1500);
    const written = new Map<string, string>();
    for (let i = 0; i < budgets; i++) {
      const b = await direct.get(Budget, { namespace: ns, name: `b${i}` });
      const w = await client.status().update(Budget, { ...b, status: { allocatedGPUs: i } });
      written.set(`b${i}`, w.metadata?.resourceVersion ?? "");
    }
    waits = 0;
    // A map function's list per pod event: 300 at once, each of which needs all 40 writes.
    const lists = await Promise.all(Array.from({ length: 300 }, () => client.list(Budget)));
    for (const list of lists) {
      const mine = list.filter((b) => b.metadata?.namespace === ns);
      expect(mine).toHaveLength(budgets);
      for (const b of mine) {
        const want = written.get(b.metadata?.name ?? "") ?? "";
        expect(compareResourceVersions(b.metadata?.resourceVersion ?? "", want)).toBeGreaterThanOrEqual(0);
      }
    }
    // One wait on the watch's progress past the newest write, shared by every list (was one per list
    // and write: 12,000, each list holding a callback on each).
    expect(waits).toBe(1);
  });

  it("the lost-update race: 40 rounds of create + complete 3 ms apart leave no budget wrong", async () => {
    const ns = "ryow-race";
    await direct.create(Namespace, { metadata: { name: ns } });
    for (let i = 0; i < 10; i++) {
      await direct.create(Pod, gpuPod(ns, `base-${i}`));
      await setPhase(ns, `base-${i}`, "Running");
    }
    await direct.create(Budget, {
      metadata: { name: "gpus", namespace: ns },
      spec: { maxGPUs: 100 },
    } as Budget);
    await startBudgetController(ns, 30);
    expect(await becomes(ns, 10, 30_000)).toBe(true);

    const running = Array.from({ length: 10 }, (_, i) => `base-${i}`);
    const wrong: number[] = [];
    for (let round = 0; round < 40; round++) {
      const created = `round-${round}`;
      const finished = running.shift()!;
      await direct.create(Pod, gpuPod(ns, created));
      await new Promise((r) => setTimeout(r, 3));
      await setPhase(ns, finished, "Succeeded");
      running.push(created);
      const truth = allocated(await direct.list(Pod, { namespace: ns }));
      expect(truth).toBe(10);
      // With the race, the status stays wrong until the next pod change: 2 s is many reconciles.
      if (!(await becomes(ns, truth, 2_000))) wrong.push(round);
    }
    expect(wrong, `rounds left wrong: ${wrong.join(", ")}`).toEqual([]);
  });
});

/** Whether `check` holds within ms (polled every 20 ms). */
const until = (check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> =>
  eventually("the condition", async () => (await check()) || undefined, ms, 20).then(
    () => true,
    () => false,
  );

function startManager(namespace: string, proxy?: FaultProxy, log = logger): Manager {
  const mgr = createManager({
    kubeConfig: env.kubeConfig,
    logger: log,
    metricsBindAddress: "0",
    healthProbeBindAddress: "0",
    cache: { namespaces: [namespace] },
    newCache: proxy ? (kc, options) => createCache(proxy.kubeConfigFor(kc), options) : undefined,
  });
  return mgr;
}

function run(mgr: Manager): void {
  const stop = new AbortController();
  stops.push(stop);
  // lint-tests: allow swallowed-error — a background manager, stopped at teardown: the test's waits fail if it dies
  mgr.start(stop.signal).catch(() => {});
}

describe("own-write suppression", () => {
  it("a status write does not re-trigger its controller; someone else's does, also between our write and its echo", async () => {
    const ns = "suppress";
    await direct.create(Namespace, { metadata: { name: ns } });
    const proxy = await startFaultProxy(env.config!.host);
    proxies.push(proxy);
    const mgr = startManager(ns, proxy);
    const client = mgr.getClient();
    let reconciles = 0;
    const seen: (string | undefined)[] = [];
    let onWrite: ((rv: string) => void) | undefined;
    // Every reconcile writes a new status: without suppression each write's echo would reconcile
    // again, for ever. With it, there is exactly one reconcile per outside change.
    const controller = controllerManagedBy(mgr)
      .for(Budget)
      .named("suppress-status")
      .withOptions({ suppressOwnWrites: "status", hotLoop: false })
      .complete({
        async reconcile(req) {
          reconciles++;
          const b = await client.get(Budget, { namespace: req.namespace, name: req.name });
          seen.push(b.status?.other);
          const out = await client.status().update(Budget, {
            ...b,
            status: { ...b.status, reconciled: reconciles },
          });
          onWrite?.(out.metadata?.resourceVersion ?? "");
          return undefined;
        },
      });
    const filter = controller.ownWriteFilter!;
    run(mgr);
    await direct.create(Budget, { metadata: { name: "b", namespace: ns }, spec: { maxGPUs: 1 } } as Budget);
    // The echo of our write is either suppressed or reconciled: wait for one of the two.
    expect(await until(() => filter.suppressed + reconciles >= 2, 30_000)).toBe(true);
    expect(reconciles).toBe(1);
    expect(filter.suppressed).toBe(1);

    // Someone else's status write triggers, and the reconcile sees it.
    const other = async (value: string) =>
      direct
        .status()
        .patch(Budget, { namespace: ns, name: "b" }, { type: "merge", data: { status: { other: value } } });
    await other("a");
    expect(await until(() => reconciles === 2 && filter.suppressed === 2, 10_000)).toBe(true);
    expect(seen.at(-1)).toBe("a");

    // Someone else writes after our write and before its watch event reaches the cache (the
    // watch is delayed 400 ms): our echo is suppressed, theirs is not.
    proxy.setLatency(400);
    const ours = new Promise<string>((resolve) => {
      onWrite = resolve;
    });
    await other("b");
    const ourRV = await ours;
    onWrite = undefined;
    const theirs = await other("c");
    expect(compareResourceVersions(theirs.metadata?.resourceVersion ?? "", ourRV)).toBeGreaterThan(0);
    // Theirs was written before our echo reached the cache: the cache is still short of our write.
    const cached = await mgr.getCache().get(Budget, { namespace: ns, name: "b" });
    expect(compareResourceVersions(cached.metadata?.resourceVersion ?? "", ourRV)).toBeLessThan(0);
    expect(await until(() => reconciles === 4 && filter.suppressed === 4, 10_000)).toBe(true);
    expect(seen).toEqual([undefined, "a", "b", "c"]);
    proxy.setLatency(0);
    // Nothing else comes: no echo slipped through.
    await new Promise((r) => setTimeout(r, 500));
    expect(reconciles).toBe(4);
  });
});

describe("hot-loop detection", () => {
  it("reports a status write that re-triggers itself within the window, and never a healthy controller on a busy object", async () => {
    const ns = "hot-loop";
    await direct.create(Namespace, { metadata: { name: ns } });
    const lines: Record<string, unknown>[] = [];
    const log = createLogger({
      level: "warn",
      destination: { write: (s: string) => void lines.push(JSON.parse(s)) },
    });
    const mgr = startManager(ns, undefined, log);
    const client = mgr.getClient();
    const named = (name: string) => ({
      predicates: [
        {
          create: (e: { object: Budget }) => e.object.metadata?.name === name,
          update: (e: { objectNew: Budget }) => e.objectNew.metadata?.name === name,
          delete: () => false,
          generic: () => false,
        },
      ],
    });
    let loops = 0;
    let loopStarted = 0;
    // The deliberate loop: a "last updated" stamp on every reconcile, whose echo reconciles again.
    controllerManagedBy(mgr)
      .for(Budget, named("loop"))
      .named("hot-looper")
      .complete({
        async reconcile(req) {
          loops++;
          if (loops > 60) return undefined; // stop burning CPU once it had its chance
          const b = await client.get(Budget, { namespace: req.namespace, name: req.name });
          await client.status().update(Budget, { ...b, status: { lastUpdated: new Date().toISOString() } });
          return undefined;
        },
      });
    // The healthy one: writes only what changed, and polls every 4 s.
    let healthy = 0;
    controllerManagedBy(mgr)
      .for(Budget, named("busy"))
      .named("healthy")
      .complete({
        async reconcile(req) {
          healthy++;
          const b = await client.get(Budget, { namespace: req.namespace, name: req.name });
          if (b.status?.observed !== b.spec.maxGPUs) {
            await client.status().update(Budget, { ...b, status: { observed: b.spec.maxGPUs } });
          }
          return { requeueAfter: 4_000 };
        },
      });
    run(mgr);
    const hotLoops = async (controller: string) =>
      (await controllerRuntimeReconcileHotLoops.get()).values.find((v) => v.labels.controller === controller)
        ?.value ?? 0;

    await direct.create(Budget, {
      metadata: { name: "busy", namespace: ns },
      spec: { maxGPUs: 0 },
    } as Budget);
    // A busy object: its spec changes 30 times (new generation each), its labels 30 times.
    for (let i = 1; i <= 30; i++) {
      await direct.patch(
        Budget,
        { namespace: ns, name: "busy" },
        { type: "merge", data: { spec: { maxGPUs: i } } },
      );
      await direct.patch(
        Budget,
        { namespace: ns, name: "busy" },
        { type: "merge", data: { metadata: { labels: { round: String(i) } } } },
      );
    }
    loopStarted = Date.now();
    await direct.create(Budget, {
      metadata: { name: "loop", namespace: ns },
      spec: { maxGPUs: 1 },
    } as Budget);
    expect(await until(async () => (await hotLoops("hot-looper")) >= 1, 60_000)).toBe(true);
    const detectedAfter = Date.now() - loopStarted;
    expect(detectedAfter).toBeLessThan(60_000);
    const warned = lines.filter((l) => l.controller === "hot-looper" && /Hot loop/.test(String(l.msg)));
    expect(warned.length).toBeGreaterThanOrEqual(1);
    expect(warned[0]).toMatchObject({ namespace: ns, name: "loop", level: "warn" });
    expect(await until(() => loops > 60, 30_000)).toBe(true);
    // Rate-limited: one warning in the window, however long the loop ran on.
    expect(lines.filter((l) => l.controller === "hot-looper" && /Hot loop/.test(String(l.msg)))).toHaveLength(
      1,
    );
    expect(
      await until(
        async () => (await direct.get(Budget, { namespace: ns, name: "busy" })).status?.observed === 30,
        10_000,
      ),
    ).toBe(true);
    expect(healthy).toBeGreaterThanOrEqual(2);
    expect(await hotLoops("healthy")).toBe(0);
    // Conflicts with the spec writes are logged as errors, as they should be; no hot loop is.
    expect(lines.filter((l) => l.controller === "healthy" && /Hot loop/.test(String(l.msg)))).toEqual([]);
    console.log(
      `hot loop detected ${detectedAfter} ms after it started (${loops} reconciles); healthy reconciled ${healthy} times`,
    );
  });
});
