/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

import { Counter, Gauge, Histogram, metricsRegistry } from "@kbts/runtime";

/**
 * The operator's own series, served at /metrics beside controller-runtime's. One series per budget,
 * labelled by namespace and name, and removed when the budget is deleted so dashboards and alerts never
 * show a budget that no longer exists.
 */
export interface BudgetMetrics {
  set(namespace: string, name: string, values: { allocated: number; max: number; exceeded: boolean }): void;
  /** Counts a reconcile whose recount differed from the webhook's incremental usage. */
  drift(namespace: string, name: string): void;
  /** Drops every series of a deleted budget. */
  forget(namespace: string, name: string): void;
}

const labelNames = ["namespace", "name"] as const;

export const allocatedGPUs = new Gauge({
  name: "gpubudget_allocated_gpus",
  help: "GPUs held by the pods a GPUBudget counts.",
  labelNames,
  registers: [metricsRegistry],
});

export const maxGPUs = new Gauge({
  name: "gpubudget_max_gpus",
  help: "The cap of a GPUBudget (spec.maxGPUs).",
  labelNames,
  registers: [metricsRegistry],
});

export const exceeded = new Gauge({
  name: "gpubudget_exceeded",
  help: "1 when the pods a GPUBudget counts hold more GPUs than its cap, else 0.",
  labelNames,
  registers: [metricsRegistry],
});

export const usageDrift = new Counter({
  name: "gpubudget_usage_drift_total",
  help: "Reconciles whose recount of a GPUBudget's usage differed from the incremental count the webhook admits by.",
  labelNames,
  registers: [metricsRegistry],
});

/** Pod admissions that asked a budget for GPUs, by what the webhook answered. */
export const admissions = new Counter({
  name: "gpubudget_admissions_total",
  help: "Pod admissions (create, relabel, resize) that asked a GPUBudget for GPUs, by result: allowed, denied, or warned (a Report budget exceeded).",
  labelNames: ["namespace", "name", "result"] as const,
  registers: [metricsRegistry],
});

/** enforcement: Queue (internal/queue): what waits in line, and how long pods waited before release. */
export const queuedPods = new Gauge({
  name: "gpubudget_queued_pods",
  help: "Pods waiting in a Queue GPUBudget's line (held by its scheduling gate).",
  labelNames,
  registers: [metricsRegistry],
});

export const queuedGPUs = new Gauge({
  name: "gpubudget_queued_gpus",
  help: "GPUs the pods waiting in a Queue GPUBudget's line ask for.",
  labelNames,
  registers: [metricsRegistry],
});

export const queueWait = new Histogram({
  name: "gpubudget_queue_wait_seconds",
  help: "How long a pod waited in a Queue GPUBudget's line, from its creation (gated) to its release.",
  labelNames,
  buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 14400, 86400],
  registers: [metricsRegistry],
});

export const queueMetrics = {
  set(namespace: string, name: string, state: { queuedPods: number; queuedMilli: number }): void {
    queuedPods.set({ namespace, name }, state.queuedPods);
    queuedGPUs.set({ namespace, name }, state.queuedMilli / 1000);
  },
  waited(namespace: string, name: string, seconds: number): void {
    queueWait.observe({ namespace, name }, seconds);
  },
};

/** spec.gpuHours (internal/ledger): GPU time used and left in the current window. */
export const gpuHoursUsed = new Gauge({
  name: "gpubudget_gpu_hours_used",
  help: "GPU-hours the pods a GPUBudget counts have used in its current spec.gpuHours window (finished pods and running ones).",
  labelNames,
  registers: [metricsRegistry],
});

export const gpuHoursRemaining = new Gauge({
  name: "gpubudget_gpu_hours_remaining",
  help: "GPU-hours left in a GPUBudget's current spec.gpuHours window (limit minus used, never below 0).",
  labelNames,
  registers: [metricsRegistry],
});

export const gpuHoursLimit = new Gauge({
  name: "gpubudget_gpu_hours_limit",
  help: "The GPU-hours a GPUBudget's spec.gpuHours window allows.",
  labelNames,
  registers: [metricsRegistry],
});

export const gpuHoursMetrics = {
  /** The ledger's figures, or none when the budget has no spec.gpuHours. */
  set(
    namespace: string,
    name: string,
    ledger: { usedMilliGPUSeconds: number; limitMilliGPUSeconds: number } | undefined,
  ): void {
    const labels = { namespace, name };
    if (!ledger) {
      gpuHoursUsed.remove(labels);
      gpuHoursRemaining.remove(labels);
      gpuHoursLimit.remove(labels);
      return;
    }
    const hours = (milliGPUSeconds: number) => milliGPUSeconds / 3_600_000;
    gpuHoursUsed.set(labels, hours(ledger.usedMilliGPUSeconds));
    gpuHoursRemaining.set(
      labels,
      hours(Math.max(0, ledger.limitMilliGPUSeconds - ledger.usedMilliGPUSeconds)),
    );
    gpuHoursLimit.set(labels, hours(ledger.limitMilliGPUSeconds));
  },
};

/** Cohorts (internal/cohort): what a budget borrows, and the pods reclaimed from it. */
export const borrowedGPUs = new Gauge({
  name: "gpubudget_borrowed_gpus",
  help: "GPUs above its cap (spec.maxGPUs) that a GPUBudget's pods hold, borrowed from its cohort.",
  labelNames,
  registers: [metricsRegistry],
});

export const reclaimedPods = new Counter({
  name: "gpubudget_reclaimed_pods_total",
  help: "Pods of a GPUBudget evicted from borrowed GPUs because a lender of its cohort needed them back.",
  labelNames,
  registers: [metricsRegistry],
});

export const recentUsage = new Gauge({
  name: "gpubudget_recent_usage_gpu_hours",
  help: "A cohort GPUBudget's recent GPU use (status.recentUsage) as of its last reconcile: GPU-hours with a half-life of 1h. Borrowers with less per GPU of their cap go first.",
  labelNames,
  registers: [metricsRegistry],
});

export const cohortMetrics = {
  /** Only budgets of a cohort have these series. */
  set(namespace: string, name: string, borrowed: number, recentGPUHours: number): void {
    borrowedGPUs.set({ namespace, name }, borrowed);
    recentUsage.set({ namespace, name }, recentGPUHours);
    reclaimedPods.inc({ namespace, name }, 0);
  },
  reclaimed(namespace: string, name: string): void {
    reclaimedPods.inc({ namespace, name });
  },
  forget(namespace: string, name: string): void {
    borrowedGPUs.remove({ namespace, name });
    recentUsage.remove({ namespace, name });
    reclaimedPods.remove({ namespace, name });
  },
};

export const budgetMetrics: BudgetMetrics = {
  set(namespace, name, values) {
    const labels = { namespace, name };
    allocatedGPUs.set(labels, values.allocated);
    maxGPUs.set(labels, values.max);
    exceeded.set(labels, values.exceeded ? 1 : 0);
    usageDrift.inc(labels, 0);
  },
  drift(namespace, name) {
    usageDrift.inc({ namespace, name });
  },
  forget(namespace, name) {
    const labels = { namespace, name };
    allocatedGPUs.remove(labels);
    maxGPUs.remove(labels);
    exceeded.remove(labels);
    usageDrift.remove(labels);
    queuedPods.remove(labels);
    queuedGPUs.remove(labels);
    queueWait.remove(labels);
    gpuHoursMetrics.set(namespace, name, undefined);
    cohortMetrics.forget(namespace, name);
    for (const result of ["allowed", "denied", "warned"]) admissions.remove({ ...labels, result });
  },
};
