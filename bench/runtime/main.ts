// bench/runtime: 10,000 pods across 100 namespaces on a local control plane.
// Prints: time from the last create to the cache holding every pod, operator RSS with the default
// transform (managedFields dropped), and p50/p99 from a pod change to its reconcile starting.
// Run: KUBEBUILDER_ASSETS=/tmp/envtest-bin node --expose-gc --import tsx bench/runtime/main.ts [pods] [namespaces]
// Imports the runtime sources directly, so no build is needed.
import { performance } from "node:perf_hooks";
import { eventually } from "../../e2e/support/eventually.js";
import { percentile } from "../../e2e/support/stats.js";
import { startEnvironment } from "../../runtime/src/envtest/index.js";
import {
  controllerManagedBy,
  createClient,
  createLogger,
  createManager,
  mergePatch,
  Namespace,
  Pod,
} from "../../runtime/src/index.js";

const PODS = Number(process.argv[2] ?? 10_000);
const NAMESPACES = Number(process.argv[3] ?? 100);
const CREATE_CONCURRENCY = 32;
const LATENCY_SAMPLES = 500;
const LATENCY_CONCURRENCY = 4;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await fn(item);
      }
    }),
  );
}

async function main(): Promise<void> {
  const rssAtStart = process.memoryUsage().rss;
  const env = await startEnvironment();
  const stop = new AbortController();
  try {
    const client = createClient(env.kubeConfig);
    const namespaces = Array.from({ length: NAMESPACES }, (_, i) => `bench-${i}`);
    await pool(namespaces, 16, async (name) => {
      await client.create(Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name } });
    });

    // The operator: a manager with one controller for Pods, started before the pods exist.
    const mgr = createManager({
      kubeConfig: env.kubeConfig,
      logger: createLogger({ level: "error" }),
      metricsBindAddress: "0",
      healthProbeBindAddress: "0",
    });
    const waiting = new Map<string, number>(); // key → time the change was sent
    const latencies: number[] = [];
    let reconciles = 0;
    controllerManagedBy(mgr)
      .for(Pod)
      .complete({
        async reconcile(req) {
          reconciles++;
          const key = `${req.namespace}/${req.name}`;
          const sent = waiting.get(key);
          if (sent !== undefined) {
            latencies.push(performance.now() - sent);
            waiting.delete(key);
          }
          return undefined;
        },
      });
    const done = mgr.start(stop.signal);
    await mgr.elected();
    const cache = mgr.getCache();
    await eventually(
      "the pod informer",
      async () => (await cache.list(Pod)).length === 0 || undefined,
      30_000,
      10,
    );

    global.gc?.();
    const rssBeforePods = process.memoryUsage().rss;
    const heapBeforePods = process.memoryUsage().heapUsed;
    const pods = Array.from({ length: PODS }, (_, i) => ({
      namespace: namespaces[i % NAMESPACES] as string,
      name: `pod-${i}`,
    }));
    const t0 = performance.now();
    let lastCreate = 0;
    await pool(pods, CREATE_CONCURRENCY, async (p) => {
      await client.create(Pod, {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: p.name, namespace: p.namespace, labels: { app: "bench" } },
        spec: { containers: [{ name: "app", image: "registry.k8s.io/pause:3.10" }] },
      });
      lastCreate = performance.now();
    });
    const createSecs = (lastCreate - t0) / 1000;
    await eventually(
      "the cache to hold every pod",
      async () => (await cache.list(Pod)).length === PODS || undefined,
      300_000,
      10,
    );
    const cacheLagMs = performance.now() - lastCreate;
    await eventually("the initial reconciles", async () => reconciles >= PODS || undefined, 300_000, 10);
    global.gc?.();
    await new Promise((r) => setTimeout(r, 500));
    const mem = process.memoryUsage();

    // Change → reconcile start latency, on a sample of pods, a few changes in flight at a time.
    const sample = pods
      .filter((_, i) => i % Math.max(1, Math.floor(PODS / LATENCY_SAMPLES)) === 0)
      .slice(0, LATENCY_SAMPLES);
    await pool(sample, LATENCY_CONCURRENCY, async (p) => {
      waiting.set(`${p.namespace}/${p.name}`, performance.now());
      await client.patch(Pod, p, mergePatch({ metadata: { labels: { touched: "yes" } } }));
      await eventually(
        `the reconcile of ${p.name}`,
        async () => !waiting.has(`${p.namespace}/${p.name}`) || undefined,
        30_000,
        10,
      );
    });
    latencies.sort((a, b) => a - b);

    console.log(
      `pods: ${PODS} across ${NAMESPACES} namespaces (created in ${createSecs.toFixed(1)} s, ${(PODS / createSecs).toFixed(0)}/s, ${CREATE_CONCURRENCY} in flight)`,
    );
    console.log(`last create → cache holds all pods: ${cacheLagMs.toFixed(0)} ms`);
    console.log(
      `operator RSS with the default transform: ${mb(mem.rss)} (RSS ${mb(mem.rss - rssBeforePods)} and heap ${mb(mem.heapUsed - heapBeforePods)} more than with the manager running and no pods; heap used ${mb(mem.heapUsed)}; process at start ${mb(rssAtStart)}, mostly module code; the load client shares this process)`,
    );
    console.log(
      `pod change → reconcile start (${latencies.length} samples, ${LATENCY_CONCURRENCY} in flight): p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${(latencies.at(-1) ?? NaN).toFixed(1)} ms`,
    );
    stop.abort();
    await done;
  } finally {
    stop.abort();
    await env.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
