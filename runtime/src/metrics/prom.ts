/**
 * prom-client's metric classes, required from its lib/ files rather than its index: the index also loads
 * every default collector, the cluster aggregator and the push gateway, and through the process-CPU
 * collector all of @opentelemetry/api (~90 modules, ~70 ms of start-up CPU and ~7 MiB resident, for
 * exemplars the runtime never enables). The classes are the very ones the index exports (one module
 * cache), so an operator that imports prom-client itself shares them.
 */
import { createRequire } from "node:module";
import type * as prom from "prom-client";

const require = createRequire(import.meta.url);

export const Registry = require("prom-client/lib/registry") as typeof prom.Registry;
export type Registry<T extends prom.RegistryContentType = prom.PrometheusContentType> = prom.Registry<T>;
export const Counter = require("prom-client/lib/counter") as typeof prom.Counter;
export type Counter<T extends string = string> = prom.Counter<T>;
export const Gauge = require("prom-client/lib/gauge") as typeof prom.Gauge;
export type Gauge<T extends string = string> = prom.Gauge<T>;
export const Histogram = require("prom-client/lib/histogram") as typeof prom.Histogram;
export type Histogram<T extends string = string> = prom.Histogram<T>;
export const Summary = require("prom-client/lib/summary") as typeof prom.Summary;
export type Summary<T extends string = string> = prom.Summary<T>;

/** One of prom-client's default collectors (lib/metrics/*.js): registers its series on `registry`. */
export type DefaultCollector = (registry: prom.Registry, config: Record<string, unknown>) => void;

/** prom-client's default collector `name` (e.g. "osMemoryHeap"), without the rest of its index. */
export function defaultCollector(name: string): DefaultCollector {
  return require(`prom-client/lib/metrics/${name}`) as DefaultCollector;
}
