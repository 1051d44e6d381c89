import { Counter, Gauge, Histogram } from "prom-client";
import { metricsRegistry } from "../metrics/registry.js";

// controller-runtime's webhook series (pkg/webhook/internal/metrics), labelled by the registered path.
export const webhookLatencySeconds = new Histogram({
  name: "controller_runtime_webhook_latency_seconds",
  help: "Histogram of the latency of processing admission requests",
  labelNames: ["webhook"] as const,
  buckets: Array.from({ length: 12 }, (_, i) => 1e-8 * 10 ** i),
  registers: [metricsRegistry],
});

export const webhookRequestsTotal = new Counter({
  name: "controller_runtime_webhook_requests_total",
  help: "Total number of admission requests by HTTP status code.",
  labelNames: ["webhook", "code"] as const,
  registers: [metricsRegistry],
});

export const webhookRequestsInFlight = new Gauge({
  name: "controller_runtime_webhook_requests_in_flight",
  help: "Current number of admission requests being served.",
  labelNames: ["webhook"] as const,
  registers: [metricsRegistry],
});

export const webhookPanicsTotal = new Counter({
  name: "controller_runtime_webhook_panics_total",
  help: "Total number of webhook panics",
  registers: [metricsRegistry],
});

/** Pre-creates the "200" and "500" series for a path, as controller-runtime does, so dashboards see zeros. */
export function initWebhookSeries(path: string): void {
  webhookRequestsTotal.labels(path, "200").inc(0);
  webhookRequestsTotal.labels(path, "500").inc(0);
  webhookRequestsInFlight.labels(path).set(0);
}
