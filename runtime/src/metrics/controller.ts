import { Counter, Gauge, Histogram } from "./prom.js";
import { metricsRegistry } from "./registry.js";

// controller-runtime's pkg/internal/controller/metrics: same names, help, labels and buckets, so
// Kubebuilder's Grafana dashboards read these series unchanged.

export const controllerRuntimeReconcileTotal = new Counter({
  name: "controller_runtime_reconcile_total",
  help: "Total number of reconciliations per controller",
  labelNames: ["controller", "result"] as const,
  registers: [metricsRegistry],
});

export const controllerRuntimeReconcileErrors = new Counter({
  name: "controller_runtime_reconcile_errors_total",
  help: "Total number of reconciliation errors per controller",
  labelNames: ["controller"] as const,
  registers: [metricsRegistry],
});

export const controllerRuntimeTerminalReconcileErrors = new Counter({
  name: "controller_runtime_terminal_reconcile_errors_total",
  help: "Total number of terminal reconciliation errors per controller",
  labelNames: ["controller"] as const,
  registers: [metricsRegistry],
});

export const controllerRuntimeReconcilePanics = new Counter({
  name: "controller_runtime_reconcile_panics_total",
  help: "Total number of reconciliation panics per controller",
  labelNames: ["controller"] as const,
  registers: [metricsRegistry],
});

export const controllerRuntimeReconcileTimeouts = new Counter({
  name: "controller_runtime_reconcile_timeouts_total",
  help: "Total number of reconciliation timeouts per controller",
  labelNames: ["controller"] as const,
  registers: [metricsRegistry],
});

/** kbts' own (no controller-runtime twin): see controller/hot-loop.ts for what counts as a hot loop. */
export const controllerRuntimeReconcileHotLoops = new Counter({
  name: "controller_runtime_reconcile_hot_loops_total",
  help: "Total number of hot loops detected per controller: one object reconciled again and again with the same generation and the same writes",
  labelNames: ["controller"] as const,
  registers: [metricsRegistry],
});

/** controller-runtime's reconcile_time_seconds buckets, verbatim. */
export const RECONCILE_TIME_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25,
  1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];

export const controllerRuntimeReconcileTime = new Histogram({
  name: "controller_runtime_reconcile_time_seconds",
  help: "Length of time per reconciliation per controller",
  labelNames: ["controller"] as const,
  buckets: RECONCILE_TIME_BUCKETS,
  registers: [metricsRegistry],
});

export const controllerRuntimeMaxConcurrentReconciles = new Gauge({
  name: "controller_runtime_max_concurrent_reconciles",
  help: "Maximum number of concurrent reconciles per controller",
  labelNames: ["controller"] as const,
  registers: [metricsRegistry],
});

export const controllerRuntimeActiveWorkers = new Gauge({
  name: "controller_runtime_active_workers",
  help: "Number of currently used workers per controller",
  labelNames: ["controller"] as const,
  registers: [metricsRegistry],
});

export type ReconcileResultLabel = "success" | "error" | "requeue" | "requeue_after";

/** What controller-runtime's initMetrics does at Start: every series exists (at 0) before the first reconcile. */
export function initControllerMetrics(controller: string, maxConcurrentReconciles: number): void {
  for (const result of ["success", "error", "requeue", "requeue_after"] as const) {
    controllerRuntimeReconcileTotal.inc({ controller, result }, 0);
  }
  controllerRuntimeReconcileErrors.inc({ controller }, 0);
  controllerRuntimeTerminalReconcileErrors.inc({ controller }, 0);
  controllerRuntimeReconcilePanics.inc({ controller }, 0);
  controllerRuntimeReconcileTimeouts.inc({ controller }, 0);
  controllerRuntimeReconcileHotLoops.inc({ controller }, 0);
  controllerRuntimeReconcileTime.zero({ controller });
  controllerRuntimeMaxConcurrentReconciles.set({ controller }, maxConcurrentReconciles);
  controllerRuntimeActiveWorkers.set({ controller }, 0);
}
