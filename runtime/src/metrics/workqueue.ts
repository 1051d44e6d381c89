import { Counter, Gauge, Histogram } from "./prom.js";
import { metricsRegistry } from "./registry.js";

// controller-runtime's pkg/internal/metrics/workqueue.go: `name` and `controller` both carry the
// controller name; depth also carries `priority` (the priority queue's level, "" for none).

/** prometheus.ExponentialBuckets(10e-9, 10, 12): 1e-8 … 1e3 seconds. */
export const WORKQUEUE_DURATION_BUCKETS = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.1, 1, 10, 100, 1000];

export const workqueueDepth = new Gauge({
  name: "workqueue_depth",
  help: "Current depth of workqueue by workqueue and priority",
  labelNames: ["name", "controller", "priority"] as const,
  registers: [metricsRegistry],
});

export const workqueueAdds = new Counter({
  name: "workqueue_adds_total",
  help: "Total number of adds handled by workqueue",
  labelNames: ["name", "controller"] as const,
  registers: [metricsRegistry],
});

export const workqueueQueueDuration = new Histogram({
  name: "workqueue_queue_duration_seconds",
  help: "How long in seconds an item stays in workqueue before being requested",
  labelNames: ["name", "controller"] as const,
  buckets: WORKQUEUE_DURATION_BUCKETS,
  registers: [metricsRegistry],
});

export const workqueueWorkDuration = new Histogram({
  name: "workqueue_work_duration_seconds",
  help: "How long in seconds processing an item from workqueue takes.",
  labelNames: ["name", "controller"] as const,
  buckets: WORKQUEUE_DURATION_BUCKETS,
  registers: [metricsRegistry],
});

/** Queues report their in-flight work at scrape time (controller-runtime samples every 500 ms). */
export interface InFlightReporter {
  readonly name: string;
  /** Seconds of work in progress summed over items, and the longest single item. */
  inFlight(): { unfinishedSeconds: number; longestSeconds: number };
}

const reporters = new Set<InFlightReporter>();

export function registerInFlightReporter(reporter: InFlightReporter): () => void {
  reporters.add(reporter);
  return () => reporters.delete(reporter);
}

export const workqueueUnfinishedWork = new Gauge({
  name: "workqueue_unfinished_work_seconds",
  help:
    "How many seconds of work has done that is in progress and hasn't been observed by work_duration. " +
    "Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
  labelNames: ["name", "controller"] as const,
  registers: [metricsRegistry],
  collect() {
    for (const r of reporters) {
      this.set({ name: r.name, controller: r.name }, r.inFlight().unfinishedSeconds);
    }
  },
});

export const workqueueLongestRunningProcessor = new Gauge({
  name: "workqueue_longest_running_processor_seconds",
  help: "How many seconds has the longest running processor for workqueue been running.",
  labelNames: ["name", "controller"] as const,
  registers: [metricsRegistry],
  collect() {
    for (const r of reporters) {
      this.set({ name: r.name, controller: r.name }, r.inFlight().longestSeconds);
    }
  },
});

export const workqueueRetries = new Counter({
  name: "workqueue_retries_total",
  help: "Total number of items added with a non-zero delay (rate-limited requeues, explicit RequeueAfter or AddAfter calls)",
  labelNames: ["name", "controller"] as const,
  registers: [metricsRegistry],
});
