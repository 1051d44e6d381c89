/**
 * prom-client's metric classes, imported from its lib/ files rather than its index: the index also loads
 * every default collector, the cluster aggregator and the push gateway, and through the process-CPU
 * collector all of @opentelemetry/api (~90 modules, ~70 ms of start-up CPU and ~7 MiB resident, for
 * exemplars the runtime never enables). The classes are the very ones the index exports (one module
 * cache), so an operator that imports prom-client itself shares them.
 *
 * Every path is a literal static import (not createRequire, not a computed name) so that a bundler
 * follows it: an operator's production bundle (make build-bundle) carries no node_modules.
 * prom-client-lib.d.ts types these files, which prom-client itself does not.
 */

import type * as prom from "prom-client";
import CounterClass from "prom-client/lib/counter.js";
import GaugeClass from "prom-client/lib/gauge.js";
import HistogramClass from "prom-client/lib/histogram.js";
import eventLoopLag from "prom-client/lib/metrics/eventLoopLag.js";
import gc from "prom-client/lib/metrics/gc.js";
import heapSizeAndUsed from "prom-client/lib/metrics/heapSizeAndUsed.js";
import heapSpacesSizeAndUsed from "prom-client/lib/metrics/heapSpacesSizeAndUsed.js";
import osMemoryHeap from "prom-client/lib/metrics/osMemoryHeap.js";
import processHandles from "prom-client/lib/metrics/processHandles.js";
import processMaxFileDescriptors from "prom-client/lib/metrics/processMaxFileDescriptors.js";
import processOpenFileDescriptors from "prom-client/lib/metrics/processOpenFileDescriptors.js";
import processRequests from "prom-client/lib/metrics/processRequests.js";
import processResources from "prom-client/lib/metrics/processResources.js";
import processStartTime from "prom-client/lib/metrics/processStartTime.js";
import version from "prom-client/lib/metrics/version.js";
import RegistryClass from "prom-client/lib/registry.js";
import SummaryClass from "prom-client/lib/summary.js";

export const Registry: typeof prom.Registry = RegistryClass;
export type Registry<T extends prom.RegistryContentType = prom.PrometheusContentType> = prom.Registry<T>;
export const Counter: typeof prom.Counter = CounterClass;
export type Counter<T extends string = string> = prom.Counter<T>;
export const Gauge: typeof prom.Gauge = GaugeClass;
export type Gauge<T extends string = string> = prom.Gauge<T>;
export const Histogram: typeof prom.Histogram = HistogramClass;
export type Histogram<T extends string = string> = prom.Histogram<T>;
export const Summary: typeof prom.Summary = SummaryClass;
export type Summary<T extends string = string> = prom.Summary<T>;

/** One of prom-client's default collectors (lib/metrics/*.js): registers its series on `registry`. */
export type DefaultCollector = (registry: prom.Registry, config: Record<string, unknown>) => void;

/** prom-client's default collectors by name, but the process-CPU one (see metrics/defaults.ts). */
const DEFAULT_COLLECTORS: Record<string, DefaultCollector> = {
  eventLoopLag,
  gc,
  heapSizeAndUsed,
  heapSpacesSizeAndUsed,
  osMemoryHeap,
  processHandles,
  processMaxFileDescriptors,
  processOpenFileDescriptors,
  processRequests,
  processResources,
  processStartTime,
  version,
};

/** prom-client's default collector `name` (e.g. "osMemoryHeap"), without the rest of its index. */
export function defaultCollector(name: string): DefaultCollector {
  const collector = DEFAULT_COLLECTORS[name];
  if (!collector) throw new Error(`prom-client has no default collector ${JSON.stringify(name)}`);
  return collector;
}
