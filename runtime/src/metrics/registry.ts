import { Counter, Registry } from "./prom.js";

// An operator's custom metrics use these, so they come from the same prom-client as metricsRegistry
// and the project needs no prom-client dependency of its own (one copy, one set of classes).
export { Counter, Gauge, Histogram, Summary } from "./prom.js";

/**
 * The one registry served at /metrics, like controller-runtime's metrics.Registry: the runtime's own
 * series and an operator's custom metrics (register yours with `registers: [metricsRegistry]`).
 */
export const metricsRegistry = new Registry();

/** client-go's rest_client_requests_total{code,method,host}: every request the client makes. */
export const restClientRequestsTotal = new Counter({
  name: "rest_client_requests_total",
  help: "Number of HTTP requests, partitioned by status code, method, and host.",
  labelNames: ["code", "method", "host"] as const,
  registers: [metricsRegistry],
});
