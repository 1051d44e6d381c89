/** What both modes of bench/gpubudget share: the budget kind, namespace names and the figures' arithmetic. */
import { readdirSync, readFileSync } from "node:fs";
import type { KubernetesObject } from "../../runtime/src/api/meta.js";
import type { Informer } from "../../runtime/src/cache/types.js";
import type { APIClient } from "../../runtime/src/client/index.js";
import { defineKind } from "../../runtime/src/kinds.js";

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

/** The p-th percentile of an ascending list (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
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
