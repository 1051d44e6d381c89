import { Counter } from "./prom.js";
import { metricsRegistry } from "./registry.js";

// controller-runtime's certwatcher series (pkg/certwatcher/metrics).
export const certReadsTotal = new Counter({
  name: "certwatcher_read_certificate_total",
  help: "Total number of certificate reads",
  registers: [metricsRegistry],
});

export const certReadErrorsTotal = new Counter({
  name: "certwatcher_read_certificate_errors_total",
  help: "Total number of certificate read errors",
  registers: [metricsRegistry],
});
