/**
 * bench/gpubudget --cluster: the same 10,000 pods, made by Deployments (one per namespace) on envtest's
 * cluster mode, so the ReplicaSet controller creates them, the scheduler places them on simulated GPU
 * nodes and kwok runs them. Prints the same figures as the plain mode plus the control plane's own pace:
 *   - ReplicaSet create rate and scheduler throughput (pods bound per second),
 *   - time from the last pod Running until every budget's status is correct,
 *   - the operator's peak RSS,
 *   - p50/p99 latency from a pod change (a Deployment scaled down by one) to its budget's status update.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "../../e2e/support/eventually.js";
import {
  buildProject,
  type ControlPlane,
  type Operator,
  scaffoldProject,
  startControlPlane,
  startOperator,
} from "../../e2e/support/operator.js";
import { percentile } from "../../e2e/support/stats.js";
import type { Pod as PodObject } from "../../runtime/src/api/core.js";
import { Deployment, Pod } from "../../runtime/src/api/kinds.js";
import { createCache } from "../../runtime/src/cache/index.js";
import { createClient } from "../../runtime/src/client/index.js";
import { simulatedNodes } from "../../runtime/src/envtest/index.js";
import { budgetStatusTimer, createBudgets, GPUBudget, ns, peakRSSMiB } from "./common.js";

export interface ClusterBenchOptions {
  pods: number;
  namespaces: number;
  samples: number;
  /** Simulated nodes the pods spread over (each with room for its share and some slack). */
  nodes: number;
  /** An already scaffolded and built project. */
  project?: string;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function runClusterBench(options: ClusterBenchOptions): Promise<void> {
  const perNs = Math.ceil(options.pods / options.namespaces);
  const perNode = Math.ceil((perNs * options.namespaces) / options.nodes) + 16;
  const work = mkdtempSync(join(tmpdir(), "kbts-bench-gpubudget-cluster-"));
  const project = options.project ?? join(work, "gpubudget");
  let cp: ControlPlane | undefined;
  let operator: Operator | undefined;
  const abort = new AbortController();
  try {
    if (!options.project) {
      console.log("scaffolding and building the GPUBudget project...");
      await scaffoldProject(project);
      await buildProject(project);
    }
    const capacity = { "nvidia.com/gpu": String(perNode), pods: String(perNode), cpu: "1000", memory: "4Ti" };
    cp = await startControlPlane(project, { cluster: { nodes: simulatedNodes(options.nodes, capacity) } });
    console.log(
      `cluster mode: ${options.nodes} simulated nodes (${perNode} GPUs and pods each); control plane up in ${seconds(cp.env.timings.clusterMs + cp.env.timings.apiServerMs + cp.env.timings.etcdMs)}`,
    );
    const client = createClient(cp.env.kubeConfig);
    await createBudgets(client, options.namespaces, perNs);
    operator = await startOperator(project, cp, {
      name: "bench",
      logDir: join(work, "logs"),
      extraArgs: ["--max-concurrent-reconciles=4", "--zap-log-level=error"],
    });

    // One watch on pods records when each was created, bound and Running.
    const created = new Map<string, number>();
    const bound = new Map<string, number>();
    const running = new Map<string, number>();
    const cache = createCache(cp.env.kubeConfig, {});
    const pods = await cache.getInformer(Pod);
    pods.addEventHandler((e) => {
      if (e.type === "delete") return;
      const p = e.object as PodObject;
      const key = `${p.metadata?.namespace}/${p.metadata?.name}`;
      const now = performance.now();
      if (!created.has(key)) created.set(key, now);
      if (p.spec?.nodeName && !bound.has(key)) bound.set(key, now);
      if (p.status?.phase === "Running" && !running.has(key)) running.set(key, now);
    });
    void cache.start(abort.signal);
    await cache.waitForCacheSync(abort.signal);

    console.log(
      `operator pid ${operator.process.pid}; ${options.namespaces} Deployments of ${perNs} pods × 1 GPU (${perNs * options.namespaces} pods)`,
    );
    const t0 = performance.now();
    for (let i = 0; i < options.namespaces; i++) {
      await client.create(Deployment, {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: "train", namespace: ns(i) },
        spec: {
          replicas: perNs,
          selector: { matchLabels: { app: "train" } },
          template: {
            metadata: { labels: { app: "train" } },
            spec: {
              terminationGracePeriodSeconds: 0,
              containers: [{ name: "c", image: "busybox", resources: { limits: { "nvidia.com/gpu": "1" } } }],
            },
          },
        },
      });
    }
    const total = perNs * options.namespaces;
    await eventually(
      async () => {
        if (running.size < total) throw new Error(`${running.size}/${total} pods Running`);
      },
      1_800_000,
      250,
    );
    const lastRunning = Math.max(...running.values());
    await eventually(
      async () => {
        const budgets = await client.list(GPUBudget, {});
        const wrong = budgets.filter((b) => b.status?.allocatedGPUs !== perNs);
        if (wrong.length > 0) throw new Error(`${wrong.length} budgets not yet correct`);
      },
      600_000,
      100,
    );
    const converged = performance.now();
    const createdTimes = [...created.values()];
    const boundTimes = [...bound.values()];
    const firstCreated = Math.min(...createdTimes);
    const lastCreated = Math.max(...createdTimes);
    const firstBound = Math.min(...boundTimes);
    const lastBound = Math.max(...boundTimes);

    // Latency: a Deployment scaled down by one; its budget's next status shows one GPU fewer.
    const statusTimer = budgetStatusTimer(await cache.getInformer(GPUBudget), 60_000);
    await cache.waitForCacheSync(abort.signal);
    const latencies: number[] = [];
    const replicas = new Map<string, number>();
    for (let s = 0; s < options.samples; s++) {
      const namespace = ns(s % options.namespaces);
      const want = (replicas.get(namespace) ?? perNs) - 1;
      replicas.set(namespace, want);
      const seen = statusTimer.next(namespace, want);
      const start = performance.now();
      await client.patch(
        Deployment,
        { namespace, name: "train" },
        { type: "merge", data: { spec: { replicas: want } } },
      );
      latencies.push((await seen) - start);
    }
    latencies.sort((a, b) => a - b);

    console.log(
      `pods: ${total} in ${options.namespaces} namespaces (one Deployment and one GPUBudget each), on ${options.nodes} simulated nodes`,
    );
    console.log(
      `ReplicaSet create rate: ${(total / ((lastCreated - firstCreated) / 1000)).toFixed(0)} pods/s (first pod ${seconds(firstCreated - t0)} after the first Deployment)`,
    );
    console.log(
      `scheduler throughput: ${(total / ((lastBound - firstBound) / 1000)).toFixed(0)} pods/s bound; all Running ${seconds(lastRunning - t0)} after the first Deployment`,
    );
    console.log(
      `all budgets correct: ${seconds(Math.max(0, converged - lastRunning))} after the last pod went Running`,
    );
    console.log(`operator peak RSS: ${peakRSSMiB(operator.process.pid ?? 0).toFixed(0)} MiB`);
    console.log(
      `Deployment scaled down by one -> budget status update (${options.samples} samples): p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    );
  } finally {
    abort.abort();
    await operator?.stop().catch(() => undefined);
    await cp?.stop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
}
