import type { IncomingMessage, ServerResponse } from "node:http";
import { Counter, Gauge, Histogram } from "../metrics/prom.js";
import { metricsRegistry } from "../metrics/registry.js";
import type { HttpHandler } from "./types.js";

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

/**
 * Wraps a webhook's HTTP handling in the series above (controller-runtime's InstrumentedHook): latency,
 * in-flight and requests by the HTTP status `serve` answered with (500 when it throws).
 */
export function instrumentWebhook(
  path: string,
  serve: (req: IncomingMessage, res: ServerResponse) => Promise<number>,
): HttpHandler {
  initWebhookSeries(path);
  return async (req, res) => {
    const stopTimer = webhookLatencySeconds.labels(path).startTimer();
    webhookRequestsInFlight.labels(path).inc();
    let httpCode = 500;
    try {
      httpCode = await serve(req, res);
    } finally {
      webhookRequestsInFlight.labels(path).dec();
      webhookRequestsTotal.labels(path, String(httpCode)).inc();
      stopTimer();
    }
  };
}

// The conversion webhook's series. controller-runtime has only the panics counter; kbts also counts and
// times every object converted, by group-kind and versions, so a failing conversion shows on a dashboard.
const conversionLabels = ["group_kind", "from_version", "to_version"] as const;

export const conversionWebhookPanicsTotal = new Counter({
  name: "controller_runtime_conversion_webhook_panics_total",
  help: "Total number of conversion webhook panics",
  registers: [metricsRegistry],
});

export const conversionsTotal = new Counter({
  name: "controller_runtime_conversion_webhook_conversions_total",
  help: "Total number of objects the conversion webhook was asked to convert, by group-kind and versions.",
  labelNames: conversionLabels,
  registers: [metricsRegistry],
});

export const conversionErrorsTotal = new Counter({
  name: "controller_runtime_conversion_webhook_conversion_errors_total",
  help: "Total number of objects the conversion webhook failed to convert, by group-kind and versions.",
  labelNames: conversionLabels,
  registers: [metricsRegistry],
});

export const conversionDurationSeconds = new Histogram({
  name: "controller_runtime_conversion_webhook_conversion_duration_seconds",
  help: "Histogram of the time taken to convert one object, by group-kind and versions.",
  labelNames: conversionLabels,
  buckets: Array.from({ length: 12 }, (_, i) => 1e-8 * 10 ** i),
  registers: [metricsRegistry],
});
conversionWebhookPanicsTotal.inc(0);
