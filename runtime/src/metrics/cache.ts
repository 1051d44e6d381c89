import { Gauge } from "./prom.js";
import { metricsRegistry } from "./registry.js";

/**
 * Per-kind cache size, read from the informers' own counters at scrape time (nothing is serialised
 * then): `type` is "full" for informers of whole objects, "metadata" for metadata-only ones.
 * controller-runtime has no such series; the names follow its style under the kbts_ prefix.
 */
export interface CacheSizeReporter {
  cacheSizes(): CacheKindSize[];
}

export interface CacheKindSize {
  group: string;
  version: string;
  kind: string;
  type: "full" | "metadata";
  objects: number;
  /** The summed length of the stored objects' JSON (after transforms), approximately. */
  bytes: number;
}

const reporters = new Set<CacheSizeReporter>();

/** A running cache reports its kinds until the returned function is called. */
export function registerCacheSizeReporter(reporter: CacheSizeReporter): () => void {
  reporters.add(reporter);
  return () => reporters.delete(reporter);
}

const labelNames = ["group", "version", "kind", "type"] as const;

function collectInto(gauge: Gauge<(typeof labelNames)[number]>, pick: (s: CacheKindSize) => number): void {
  gauge.reset();
  for (const reporter of reporters) {
    for (const s of reporter.cacheSizes()) {
      gauge.inc({ group: s.group, version: s.version, kind: s.kind, type: s.type }, pick(s));
    }
  }
}

export const cacheObjects: Gauge<(typeof labelNames)[number]> = new Gauge({
  name: "kbts_cache_objects",
  help: "Objects held by the informer cache, by kind; type is full, or metadata for metadata-only informers",
  labelNames,
  registers: [metricsRegistry],
  collect() {
    collectInto(this, (s) => s.objects);
  },
});

export const cacheObjectBytes: Gauge<(typeof labelNames)[number]> = new Gauge({
  name: "kbts_cache_object_bytes",
  help: "Approximate size of the objects held by the informer cache, by kind: the length of their JSON after transforms",
  labelNames,
  registers: [metricsRegistry],
  collect() {
    collectInto(this, (s) => s.bytes);
  },
});
