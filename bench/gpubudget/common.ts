/** What both modes of bench/gpubudget share: the budget kind, namespace names and the figures' arithmetic. */
import { readdirSync, readFileSync } from "node:fs";
import type { KubernetesObject } from "../../runtime/src/api/meta.js";
import type { Informer } from "../../runtime/src/cache/types.js";
import { defineKind } from "../../runtime/src/kinds.js";

export interface Budget extends KubernetesObject {
  spec: { maxGPUs: number };
  status?: { allocatedGPUs?: number; conditions?: { type: string; status: string }[] };
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

/** A process's peak resident set (VmHWM), in MiB. */
export function peakRSSMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? "0");
  return kb / 1024;
}

/** utime + stime of a process, in seconds (clock ticks are 100/s on Linux). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
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
