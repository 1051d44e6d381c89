/**
 * What an informer start costs the API server, with the initial state streamed (WatchList) and listed
 * in pages (issue 30, item 2). Creates N ConfigMaps (default 100,000, 1 KiB of data each) across 10
 * namespaces on a local control plane, then, for each way in turn (twice each, interleaved), restarts
 * kube-apiserver (so each start meets a fresh process, whose watch cache is then primed), waits until
 * its memory settles, starts a cache on ConfigMaps in all namespaces and samples kube-apiserver's RSS
 * every 20 ms until the cache has synced. Prints the peak above the settled baseline, and the sync time.
 *
 *   KUBEBUILDER_ASSETS=... npx tsx bench/watchlist/main.ts [objects]
 */
import { readFileSync } from "node:fs";
import type { KubeConfig } from "../../runtime/src/client/kubeconfig.js";
import { restartAPIServer } from "../../runtime/src/envtest/apiserver-restart.js";
import { startEnvironment } from "../../runtime/src/envtest/index.js";
import { ConfigMap, createCache, createClient, createLogger, Namespace } from "../../runtime/src/index.js";

const objects = Number(process.argv[2] ?? 100_000);
const NAMESPACES = 10;
const mib = (kib: number) => kib / 1024;

function rssKiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) : 0;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until RSS changes by less than 1% over 3 s; returns it. */
async function settled(pid: number): Promise<number> {
  let last = rssKiB(pid);
  for (;;) {
    await sleep(3_000);
    const now = rssKiB(pid);
    if (Math.abs(now - last) < last * 0.01) return now;
    last = now;
  }
}

async function informerStart(kc: KubeConfig, pid: number, watchList: boolean) {
  const baseline = await settled(pid);
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssKiB(pid));
  }, 20);
  // Every ConfigMap in the cluster, on purpose: silence the cache's warning about it.
  const cache = createCache(kc, { reflector: { watchList }, logger: createLogger({ level: "error" }) });
  const stop = new AbortController();
  void cache.start(stop.signal);
  const t0 = performance.now();
  const listed = await cache.list(ConfigMap);
  const syncMs = performance.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, rssKiB(pid));
  const stats = cache.peekInformer(ConfigMap)?.reflectors[0]?.stats;
  stop.abort();
  if (watchList !== (stats?.streamedLists === 1))
    throw new Error(`watchList ${watchList} but stats ${JSON.stringify(stats)}`);
  return { baselineMiB: mib(baseline), peakAboveMiB: mib(peak - baseline), syncMs, listed: listed.length };
}

const env = await startEnvironment({});
try {
  const client = createClient(env.kubeConfig);
  for (let n = 0; n < NAMESPACES; n++) await client.create(Namespace, { metadata: { name: `wl-${n}` } });
  const value = "x".repeat(1024);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      for (let i = next++; i < objects; i = next++) {
        await client.create(ConfigMap, {
          metadata: { name: `cm-${i}`, namespace: `wl-${i % NAMESPACES}` },
          data: { value },
        });
      }
    }),
  );
  console.error(`created ${objects} ConfigMaps in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

  const rows: { way: string; baselineMiB: number; peakAboveMiB: number; syncMs: number; listed: number }[] =
    [];
  let apiserver = await restartAPIServer(env);
  for (const watchList of [true, false, true, false]) {
    const r = await informerStart(apiserver.kubeConfig, apiserver.pid, watchList);
    rows.push({ way: watchList ? "WatchList stream" : "paged LIST (500)", ...r });
    console.error(JSON.stringify(rows.at(-1)));
    apiserver = await restartAPIServer(apiserver, { env });
  }
  await apiserver.stop();

  console.log(
    `\nkube-apiserver memory during one informer start, ${objects} ConfigMaps of 1 KiB (load ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]})`,
  );
  console.log("| initial state | settled RSS before (MiB) | peak above it (MiB) | sync (ms) |");
  console.log("|---|---|---|---|");
  for (const r of rows) {
    console.log(
      `| ${r.way} | ${r.baselineMiB.toFixed(0)} | ${r.peakAboveMiB.toFixed(0)} | ${r.syncMs.toFixed(0)} |`,
    );
  }
} finally {
  await env.stop();
}
