/**
 * How fast the informer cache lists and syncs a large collection, and what it costs in memory.
 * Creates N pods (default 10,000) across 100 namespaces on a local envtest control plane with the
 * client, then, in a fresh Node process (so creation garbage does not count), starts a cache, reads
 * once, and reports list+sync time and RSS/heap with the default transform (managedFields dropped).
 *
 *   KUBEBUILDER_ASSETS=/tmp/envtest-bin npx tsx bench/cache-sync/main.ts [pods] [--keep-managed-fields]
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startEnvironment } from "../../runtime/src/envtest/index.js";
import {
  createAPIReader,
  createCache,
  createClient,
  loadKubeConfig,
  Namespace,
  Pod,
} from "../../runtime/src/index.js";

const NAMESPACES = 100;

async function measure(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const keepManagedFields = process.argv.includes("--keep-managed-fields");
  const kc = loadKubeConfig();
  gc?.();
  const before = process.memoryUsage();
  const cache = createCache(kc, keepManagedFields ? { transforms: { "v1/Pod": (o) => o } } : {});
  const ac = new AbortController();
  const running = cache.start(ac.signal);
  const client = createClient(kc, { cache });
  const t0 = performance.now();
  const pods = await client.list(Pod, { namespace: "bench-0" });
  const syncMs = performance.now() - t0;
  const total = cache.peekInformer(Pod)?.store.size ?? 0;
  gc?.();
  const after = process.memoryUsage();
  const peakRssMB = process.resourceUsage().maxRSS / 1024;
  // The API server's share: the same paged list without a cache (run after the cache, on a warm server).
  const tr = performance.now();
  const raw = await createAPIReader(kc).list(Pod);
  const apiListMs = performance.now() - tr;
  const rawCount = raw.length;
  raw.length = 0;

  const t1 = performance.now();
  const all = await client.list(Pod);
  const listAllMs = performance.now() - t1;
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  console.log(
    JSON.stringify({
      objects: total,
      uncachedPagedListMs: Math.round(apiListMs),
      uncachedListed: rawCount,
      firstReadSyncMs: Math.round(syncMs),
      cachedListAllMs: Math.round(listAllMs),
      listedFromOneNamespace: pods.length,
      listedAll: all.length,
      transform: keepManagedFields ? "none (managedFields kept)" : "default (managedFields dropped)",
      baselineRssMB: mb(before.rss),
      rssMB: mb(after.rss),
      peakRssMB: peakRssMB.toFixed(1),
      rssDeltaMB: mb(after.rss - before.rss),
      heapUsedDeltaMB: mb(after.heapUsed - before.heapUsed),
    }),
  );
  ac.abort();
  await running;
}

async function main(): Promise<void> {
  const count = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 10_000);
  const env = await startEnvironment();
  try {
    const client = createClient(env.kubeConfig);
    for (let n = 0; n < NAMESPACES; n++) await client.create(Namespace, { metadata: { name: `bench-${n}` } });
    const t0 = performance.now();
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < count; i = next++) {
        await client.create(Pod, {
          metadata: {
            name: `pod-${i}`,
            namespace: `bench-${i % NAMESPACES}`,
            labels: { app: "bench", idx: String(i) },
          },
          spec: {
            containers: [
              { name: "c", image: "registry.k8s.io/pause:3.10", resources: { requests: { cpu: "10m" } } },
            ],
          },
        });
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    const createMs = performance.now() - t0;
    console.log(
      JSON.stringify({
        created: count,
        createMs: Math.round(createMs),
        createsPerSecond: Math.round(count / (createMs / 1000)),
      }),
    );
    for (const extra of [[], ["--keep-managed-fields"]]) {
      const res = spawnSync(
        process.execPath,
        ["--expose-gc", "--import", "tsx", fileURLToPath(import.meta.url), "measure", ...extra],
        { env: { ...process.env, KUBECONFIG: env.kubeconfigPath }, stdio: "inherit" },
      );
      if (res.status !== 0) throw new Error(`measuring process exited with ${res.status}`);
    }
  } finally {
    await env.stop();
  }
}

await (process.argv.includes("measure") ? measure() : main());
