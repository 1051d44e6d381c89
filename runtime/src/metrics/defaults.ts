import { collectDefaultMetrics } from "prom-client";
import { metricsRegistry } from "./registry.js";

let registered = false;

/**
 * The process_* series (and Node's runtime series, standing in for go_*) that controller-runtime's
 * registry carries. Registered once, by the manager, so importing the runtime has no side effects.
 */
export function registerProcessMetrics(): void {
  if (registered) return;
  registered = true;
  collectDefaultMetrics({ register: metricsRegistry });
}
