/** What both modes of bench/gpubudget share: the budget kind, namespace names and the figures' arithmetic. */
import { readdirSync, readFileSync } from "node:fs";
import {
  budgetFullRefusals,
  histogramBuckets,
  POD_WEBHOOK,
  podWebhookCalls,
  sumCounter,
} from "../../e2e/support/apiserver-metrics.js";
import { eventually } from "../../e2e/support/eventually.js";
import type { ControlPlane } from "../../e2e/support/operator.js";
import type { Pod as PodObject } from "../../runtime/src/api/core.js";
import { defineKind } from "../../runtime/src/api/kind.js";
import { Namespace, Pod } from "../../runtime/src/api/kinds.js";
import type { KubernetesObject } from "../../runtime/src/api/meta.js";
import { createCache } from "../../runtime/src/cache/index.js";
import type { Informer } from "../../runtime/src/cache/types.js";
import type { APIClient } from "../../runtime/src/client/index.js";
import { cpuSeconds } from "./footprint.js";

export interface Budget extends KubernetesObject {
  spec: { maxGPUs: number };
  status?: {
    allocatedGPUs?: number;
    observedGeneration?: number;
    conditions?: { type: string; status: string }[];
  };
}

export const GPUBudget = defineKind<Budget>({
  group: "capacity.lab.example.com",
  version: "v1alpha1",
  kind: "GPUBudget",
  plural: "gpubudgets",
  namespaced: true,
});

/** The i-th benchmark namespace: bench-000, bench-001, ... */
export const ns = (i: number) => `bench-${String(i).padStart(3, "0")}`;

// Kept here for the figures that already import them; footprint.ts reads /proc for every figure.
export { cpuSeconds, peakRSSMiB } from "./footprint.js";

/** Namespaces ns(0)..ns(count - 1), each with one GPUBudget "budget" of `maxGPUs`. */
export async function createBudgets(client: APIClient, count: number, maxGPUs: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await client.create(Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: ns(i) } });
    await client.create(GPUBudget, {
      apiVersion: "capacity.lab.example.com/v1alpha1",
      kind: "GPUBudget",
      metadata: { name: "budget", namespace: ns(i) },
      spec: { maxGPUs },
    });
  }
}

/**
 * Pod change -> budget status latency, ascending (ms): `samples` pods spread over `pods` go Succeeded one
 * at a time, and a watch on budgets timestamps the status update showing one GPU fewer. `expected`
 * (GPUs per namespace now) is kept up to date.
 */
export async function statusLatencies(
  kubeConfig: Parameters<typeof createCache>[0],
  client: APIClient,
  pods: readonly PodObject[],
  expected: Map<string, number>,
  samples: number,
): Promise<number[]> {
  const cache = createCache(kubeConfig, {});
  const abort = new AbortController();
  try {
    const statusTimer = budgetStatusTimer(await cache.getInformer(GPUBudget), 30_000);
    void cache.start(abort.signal);
    await cache.waitForCacheSync(abort.signal);
    const latencies: number[] = [];
    for (let s = 0; s < samples; s++) {
      const pod = pods[s * Math.floor(pods.length / samples)] as PodObject;
      const namespace = pod.metadata?.namespace ?? "";
      const want = (expected.get(namespace) ?? 0) - 1;
      expected.set(namespace, want);
      const seen = statusTimer.next(namespace, want);
      const t0 = performance.now();
      await client
        .status()
        .patch(
          Pod,
          { namespace, name: pod.metadata?.name ?? "" },
          { type: "merge", data: { status: { phase: "Succeeded" } } },
        );
      latencies.push((await seen) - t0);
    }
    return latencies.sort((a, b) => a - b);
  } finally {
    abort.abort();
  }
}

/**
 * Whether every budget's status reports its generation: the operator's start-up reconciles are done
 * (with waitForIdle in footprint.ts, what "idle after cache sync" waits for).
 */
export async function startupReconciled(client: APIClient): Promise<boolean> {
  const budgets = await client.list(GPUBudget, {});
  return budgets.every((b) => b.status?.observedGeneration === b.metadata?.generation);
}

/** This process's children by command name (etcd, kube-apiserver: envtest starts them), for their CPU. */
export function childPids(): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === process.pid) out.set(comm, Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * The processes that share the machine's cores while a bench creates pods: on saturated cores, two
 * phases' create rates stand in about the inverse ratio of their CPU per create, so these say where a
 * phase's time goes (the bench's own client included).
 */
export const CPU_PROCESSES = ["operator", "kube-apiserver", "etcd", "bench client"] as const;
export type CPUSeconds = Record<(typeof CPU_PROCESSES)[number], number>;

/** CPU seconds so far of each of CPU_PROCESSES (0 for one not running). */
export function cpuByProcess(operatorPid: number | undefined): CPUSeconds {
  const children = childPids();
  const of = (pid: number | undefined) => (pid === undefined ? 0 : cpuSeconds(pid));
  const own = process.cpuUsage();
  return {
    operator: of(operatorPid),
    "kube-apiserver": of(children.get("kube-apiserver")),
    etcd: of(children.get("etcd")),
    "bench client": (own.user + own.system) / 1e6,
  };
}

/** Each process's CPU seconds from one reading to the next. */
export function cpuBetween(before: CPUSeconds, after: CPUSeconds): CPUSeconds {
  const out = { ...after };
  for (const name of CPU_PROCESSES) out[name] = after[name] - before[name];
  return out;
}

/** Runs `fn` over `items`, at most `n` at a time. */
export async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
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

/**
 * Times budget status updates seen through `informer`: `next(namespace, allocated)` resolves with the
 * moment that namespace's budget reports `allocated` GPUs, or rejects after `timeoutMs`. Call it before
 * the change it waits for, so an update that arrives at once is not missed.
 */
export function budgetStatusTimer(informer: Informer<Budget>, timeoutMs: number) {
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
  return {
    next(namespace: string, want: number): Promise<number> {
      const seen = new Promise<number>((resolve) => waiters.set(namespace, { want, resolve }));
      const timeout = new Promise<number>((_, reject) =>
        setTimeout(
          () => reject(new Error(`no status update for ${namespace} within ${timeoutMs / 1000}s`)),
          timeoutMs,
        ).unref(),
      );
      return Promise.race([seen, timeout]);
    },
  };
}

/**
 * The API server's budget checks so far: Pod webhook calls, and refusals by the budget-full policy; and
 * the writes of GPUBudget status (the webhook's reservations and the controller's counts), with how
 * many of them were refused as conflicts (409: written against a version no longer the latest).
 */
export async function budgetChecks(c: Pick<ControlPlane, "kubectl">): Promise<{
  webhookCalls: number;
  policyRefusals: number;
  statusWrites: number;
  statusConflicts: number;
  /** How long kube-apiserver waited on the Pod webhook, and took for a status write: histogram buckets (s). */
  webhookSeconds: Map<number, number>;
  statusWriteSeconds: Map<number, number>;
}> {
  const metrics = (await c.kubectl(["get", "--raw", "/metrics"])).stdout;
  const statusWrite = (l: string) =>
    l.includes('resource="gpubudgets"') && l.includes('subresource="status"') && /verb="(PUT|PATCH)"/.test(l);
  return {
    webhookCalls: podWebhookCalls(metrics),
    policyRefusals: budgetFullRefusals(metrics),
    statusWrites: sumCounter(metrics, "apiserver_request_total", statusWrite),
    statusConflicts: sumCounter(
      metrics,
      "apiserver_request_total",
      (l) => statusWrite(l) && l.includes('code="409"'),
    ),
    webhookSeconds: histogramBuckets(metrics, "apiserver_admission_webhook_admission_duration_seconds", (l) =>
      l.includes(`name="${POD_WEBHOOK}"`),
    ),
    statusWriteSeconds: histogramBuckets(metrics, "apiserver_request_duration_seconds", statusWrite),
  };
}

/** How many times kube-apiserver has called the Pod webhook (its apiserver_admission_webhook_request_total). */
export async function webhookCalls(c: Pick<ControlPlane, "kubectl">): Promise<number> {
  return (await budgetChecks(c)).webhookCalls;
}

/**
 * Polls until a dry-run pod asking for `gpus` in `namespace` is refused, and, given `because`, refused
 * with a message containing it (which admission step refused: the webhook, or the quota plugin).
 */
export async function refusesDryRun(
  client: APIClient,
  namespace: string,
  gpus: number,
  because?: string,
): Promise<void> {
  await eventually(async () => {
    const refusal = await client
      .create(
        Pod,
        {
          apiVersion: "v1",
          kind: "Pod",
          metadata: { name: "probe", namespace },
          spec: {
            containers: [
              { name: "c", image: "busybox", resources: { limits: { "nvidia.com/gpu": String(gpus) } } },
            ],
          },
        },
        { dryRun: true },
      )
      .then(
        () => undefined,
        (err: Error) => err.message,
      );
    if (refusal === undefined)
      throw new Error(`a dry-run pod asking for ${gpus} GPUs in "${namespace}" was admitted`);
    if (because !== undefined && !refusal.includes(because))
      throw new Error(`a dry-run pod in "${namespace}" was refused, but not for "${because}": ${refusal}`);
  });
}
