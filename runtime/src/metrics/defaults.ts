import { Counter, defaultCollector, type Registry } from "./prom.js";
import { metricsRegistry } from "./registry.js";

const registered = new WeakSet<Registry>();

/**
 * The process_* series (and Node's runtime series, standing in for go_*) that controller-runtime's
 * registry carries: prom-client's collectDefaultMetrics series, registered once, by the manager, so
 * importing the runtime has no side effects. The collectors are prom-client's own, but the process-CPU
 * one, which is ours so that @opentelemetry/api (its exemplars) is never loaded.
 */
export function registerProcessMetrics(registry: Registry = metricsRegistry): void {
  if (registered.has(registry)) return;
  registered.add(registry);
  const config = { eventLoopMonitoringPrecision: 10 };
  processCPU(registry);
  for (const name of [
    "processStartTime",
    "osMemoryHeap",
    "processOpenFileDescriptors",
    "processMaxFileDescriptors",
    "eventLoopLag",
    ...(typeof process.getActiveResourcesInfo === "function" ? ["processResources"] : []),
    "processHandles",
    "processRequests",
    "heapSizeAndUsed",
    "heapSpacesSizeAndUsed",
    "version",
    "gc",
  ]) {
    defaultCollector(name)(registry, config);
  }
}

/** process_cpu_{user,system,}_seconds_total, as prom-client's collector counts them (at each scrape). */
function processCPU(registry: Registry): void {
  let last = process.cpuUsage();
  const system = new Counter({
    name: "process_cpu_system_seconds_total",
    help: "Total system CPU time spent in seconds.",
    registers: [registry],
  });
  const total = new Counter({
    name: "process_cpu_seconds_total",
    help: "Total user and system CPU time spent in seconds.",
    registers: [registry],
  });
  new Counter({
    name: "process_cpu_user_seconds_total",
    help: "Total user CPU time spent in seconds.",
    registers: [registry],
    collect() {
      const now = process.cpuUsage();
      const user = (now.user - last.user) / 1e6;
      const sys = (now.system - last.system) / 1e6;
      last = now;
      this.inc(user);
      system.inc(sys);
      total.inc(user + sys);
    },
  });
}
