/**
 * bench/gpubudget: the scaffolded GPUBudget operator (a real process, as deployed) on a local control
 * plane with 10,000 pods over 100 namespaces, one budget each. Prints:
 *   - time from the last pod create until every budget's status is correct,
 *   - the operator's peak RSS (VmHWM),
 *   - p50/p99 latency from a pod change (status phase -> Succeeded) to its budget's status update,
 *     as seen by a watch.
 *
 *   npx tsx bench/gpubudget/main.ts [--pods 10000] [--namespaces 100] [--samples 200] [--project DIR]
 *
 * --project reuses an already scaffolded and built project (e.g. from `make demo DEMO_ARGS=--keep`).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  buildProject,
  type ControlPlane,
  eventually,
  type Operator,
  scaffoldProject,
  startControlPlane,
  startOperator,
} from "../../e2e/demo/lib.js";
import type { Pod as PodObject } from "../../runtime/src/api/core.js";
import { Namespace, Pod } from "../../runtime/src/api/kinds.js";
import type { KubernetesObject } from "../../runtime/src/api/meta.js";
import { createCache } from "../../runtime/src/cache/index.js";
import { createClient } from "../../runtime/src/client/index.js";
import { defineKind } from "../../runtime/src/kinds.js";

const { values } = parseArgs({
  options: {
    pods: { type: "string", default: "10000" },
    namespaces: { type: "string", default: "100" },
    samples: { type: "string", default: "200" },
    concurrency: { type: "string", default: "32" },
    project: { type: "string" },
  },
});
const PODS = Number(values.pods);
const NAMESPACES = Number(values.namespaces);
const SAMPLES = Number(values.samples);
const CONCURRENCY = Number(values.concurrency);
const PER_NS = Math.ceil(PODS / NAMESPACES);

interface Budget extends KubernetesObject {
  spec: { maxGPUs: number };
  status?: { allocatedGPUs?: number; conditions?: { type: string; status: string }[] };
}
const GPUBudget = defineKind<Budget>({
  group: "capacity.lab.example.com",
  version: "v1alpha1",
  kind: "GPUBudget",
  plural: "gpubudgets",
  namespaced: true,
});

const ns = (i: number) => `bench-${String(i).padStart(3, "0")}`;

async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await fn(item);
      }
    }),
  );
}

function peakRSSMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? "0");
  return kb / 1024;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const work = mkdtempSync(join(tmpdir(), "kbts-bench-gpubudget-"));
const project = values.project ?? join(work, "gpubudget");
let cp: ControlPlane | undefined;
let operator: Operator | undefined;

try {
  if (!values.project) {
    console.log("scaffolding and building the GPUBudget project...");
    await scaffoldProject(project);
    await buildProject(project);
  }
  cp = await startControlPlane(project);
  const client = createClient(cp.env.kubeConfig);

  for (let i = 0; i < NAMESPACES; i++) {
    await client.create(Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: ns(i) } });
    await client.create(GPUBudget, {
      apiVersion: "capacity.lab.example.com/v1alpha1",
      kind: "GPUBudget",
      metadata: { name: "budget", namespace: ns(i) },
      spec: { maxGPUs: PER_NS },
    });
  }
  operator = await startOperator(project, cp, {
    name: "bench",
    logDir: join(work, "logs"),
    extraArgs: ["--max-concurrent-reconciles=4", "--zap-log-level=error"],
  });
  console.log(
    `operator pid ${operator.process.pid}; creating ${PODS} pods in ${NAMESPACES} namespaces (${CONCURRENCY} at a time)`,
  );

  const pods: PodObject[] = [];
  for (let i = 0; i < PODS; i++) {
    pods.push({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: `p-${i}`, namespace: ns(i % NAMESPACES) },
      spec: {
        containers: [{ name: "c", image: "busybox", resources: { limits: { "nvidia.com/gpu": "1" } } }],
      },
    });
  }
  const createStart = Date.now();
  await pool(pods, CONCURRENCY, async (p) => {
    await client.create(Pod, p);
  });
  const lastCreate = Date.now();
  const expected = new Map<string, number>();
  for (const p of pods)
    expected.set(p.metadata?.namespace ?? "", (expected.get(p.metadata?.namespace ?? "") ?? 0) + 1);
  await eventually(
    async () => {
      const budgets = await client.list(GPUBudget, {});
      const wrong = budgets.filter(
        (b) => b.status?.allocatedGPUs !== expected.get(b.metadata?.namespace ?? ""),
      );
      if (wrong.length > 0) throw new Error(`${wrong.length} budgets not yet correct`);
    },
    600_000,
    100,
  );
  const converged = Date.now();

  // Latency: a watch (informer) on budgets timestamps each status update after a pod change.
  const cache = createCache(cp.env.kubeConfig, {});
  const abort = new AbortController();
  const informer = await cache.getInformer(GPUBudget);
  const waiters = new Map<string, { want: number; resolve: (t: number) => void }>();
  informer.addEventHandler((e) => {
    if (e.type !== "update") return;
    const key = e.object.metadata?.namespace ?? "";
    const w = waiters.get(key);
    if (w && e.object.status?.allocatedGPUs === w.want) {
      waiters.delete(key);
      w.resolve(performance.now());
    }
  });
  void cache.start(abort.signal);
  await cache.waitForCacheSync(abort.signal);
  const latencies: number[] = [];
  for (let s = 0; s < SAMPLES; s++) {
    const pod = pods[s * Math.floor(PODS / SAMPLES)] as PodObject;
    const namespace = pod.metadata?.namespace ?? "";
    const before = expected.get(namespace) ?? 0;
    expected.set(namespace, before - 1);
    const seen = new Promise<number>((resolve) => waiters.set(namespace, { want: before - 1, resolve }));
    const t0 = performance.now();
    await client
      .status()
      .patch(
        Pod,
        { namespace, name: pod.metadata?.name ?? "" },
        { type: "merge", data: { status: { phase: "Succeeded" } } },
      );
    const timeout = new Promise<number>((_, reject) =>
      setTimeout(() => reject(new Error(`no status update for ${namespace} within 30s`)), 30_000).unref(),
    );
    latencies.push((await Promise.race([seen, timeout])) - t0);
  }
  abort.abort();
  latencies.sort((a, b) => a - b);

  const rss = peakRSSMiB(operator.process.pid ?? 0);
  console.log(`pods: ${PODS} in ${NAMESPACES} namespaces (one GPUBudget each)`);
  console.log(`create rate: ${(PODS / ((lastCreate - createStart) / 1000)).toFixed(0)} pods/s`);
  console.log(
    `all budgets correct: ${((converged - lastCreate) / 1000).toFixed(2)} s after the last pod create`,
  );
  console.log(`operator peak RSS: ${rss.toFixed(0)} MiB`);
  console.log(
    `pod change -> budget status update (${SAMPLES} samples): p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  );
} finally {
  await operator?.stop().catch(() => undefined);
  await cp?.stop().catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
}
