import { hostname } from "node:os";
import type { Event } from "../api/core.js";
import { Event as EventKind } from "../api/kinds.js";
import type { KubernetesObject, ObjectReference } from "../api/meta.js";
import { isNotFound } from "../client/errors.js";
import type { Client } from "../client/types.js";
import { nopLogger } from "../log/logger.js";
import type { Logger } from "../log/types.js";
import type { EventRecorder } from "./types.js";

export interface EventRecorderOptions {
  /** Repeats of the same event within this window update its count instead of creating a new Event (10 min). */
  aggregationWindowMs?: number;
  /** How many distinct events are remembered for aggregation (client-go's LRU holds 4096). */
  cacheSize?: number;
  /** source.host; the machine's host name by default. */
  host?: string;
  /**
   * client-go's spam filter: per object, a token bucket of `burst` events (25) refilled by one every
   * `refillMs` (5 min); events beyond it are dropped, so a hot-looping reconciler cannot flood the API server.
   */
  spamFilter?: { burst?: number; refillMs?: number } | false;
}

/** An EventRecorder whose writes can be awaited (tests, graceful shutdown). */
export interface FlushableEventRecorder extends EventRecorder {
  /** printf-style convenience: eventf(obj, "Normal", "Scaled", "scaled to %d", 3). */
  eventf(
    object: KubernetesObject,
    type: "Normal" | "Warning",
    reason: string,
    format: string,
    ...args: unknown[]
  ): void;
  /** Resolves when every event recorded so far has been written (or failed and been logged). */
  flush(): Promise<void>;
}

interface Seen {
  name: string;
  namespace: string;
  count: number;
  firstTimestamp: string;
  lastSeenMs: number;
}

const now = () => new Date().toISOString().replace(/\.\d+Z$/, "Z");

function format(fmt: string, args: unknown[]): string {
  let i = 0;
  return fmt.replace(/%[sdvqf%]/g, (m) => {
    if (m === "%%") return "%";
    const a = args[i++];
    return m === "%q" ? JSON.stringify(String(a)) : String(a);
  });
}

/**
 * Writes core/v1 Events about objects, as client-go's recorder does in its simplest form: the first
 * occurrence creates an Event named <object>.<hex nanoseconds>; an identical repeat (same object,
 * type, reason, message) within the window patches its count and lastTimestamp. Recording never
 * throws or blocks the caller: writes happen in the background and failures are logged.
 */
export function createEventRecorder(
  client: Client,
  component: string,
  logger: Logger = nopLogger(),
  options: EventRecorderOptions = {},
): FlushableEventRecorder {
  return new Recorder(client, component, logger, options);
}

class Recorder implements FlushableEventRecorder {
  private readonly log: Logger;
  private readonly windowMs: number;
  private readonly cacheSize: number;
  private readonly host: string;
  private readonly seen = new Map<string, Seen>(); // insertion order doubles as LRU order
  private readonly chains = new Map<string, Promise<void>>(); // one write at a time per aggregation key
  private readonly pending = new Set<Promise<void>>();
  private readonly burst: number;
  private readonly refillMs: number;
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly client: Client,
    private readonly component: string,
    logger: Logger,
    options: EventRecorderOptions,
  ) {
    this.log = logger.child({ eventRecorder: component });
    this.windowMs = options.aggregationWindowMs ?? 10 * 60 * 1000;
    this.cacheSize = options.cacheSize ?? 4096;
    this.host = options.host ?? hostname();
    this.burst = options.spamFilter === false ? Number.POSITIVE_INFINITY : (options.spamFilter?.burst ?? 25);
    this.refillMs = options.spamFilter === false ? 1 : (options.spamFilter?.refillMs ?? 5 * 60 * 1000);
  }

  event(object: KubernetesObject, type: "Normal" | "Warning", reason: string, message: string): void {
    this.record(object, type, reason, message);
  }

  eventf(
    object: KubernetesObject,
    type: "Normal" | "Warning",
    reason: string,
    fmt: string,
    ...args: unknown[]
  ): void {
    this.record(object, type, reason, format(fmt, args));
  }

  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Takes a token from the object's bucket; false when the object has used up its events. */
  private allow(objectKey: string): boolean {
    const burst = this.burst;
    if (burst === Number.POSITIVE_INFINITY) return true;
    const now = Date.now();
    const buckets = this.buckets;
    const b = buckets.get(objectKey) ?? { tokens: burst, at: now };
    b.tokens = Math.min(burst, b.tokens + (now - b.at) / this.refillMs);
    b.at = now;
    buckets.delete(objectKey);
    buckets.set(objectKey, b);
    while (buckets.size > this.cacheSize) buckets.delete(buckets.keys().next().value as string);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  private async write(
    key: string,
    ref: ObjectReference,
    type: string,
    reason: string,
    message: string,
  ): Promise<void> {
    const seen = this.seen;
    const at = Date.now();
    const timestamp = now();
    const prior = seen.get(key);
    if (prior && at - prior.lastSeenMs <= this.windowMs) {
      seen.delete(key);
      prior.count += 1;
      prior.lastSeenMs = at;
      seen.set(key, prior);
      try {
        await this.client.patch(
          EventKind,
          { namespace: prior.namespace, name: prior.name },
          { type: "merge", data: { count: prior.count, lastTimestamp: timestamp, message } },
        );
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err;
        // The Event was garbage-collected (TTL) or deleted: start a new one.
      }
    }
    const namespace = ref.namespace || "default";
    const name = `${ref.name}.${(BigInt(at) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000))).toString(16)}`;
    const event: Event = {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name, namespace },
      involvedObject: ref,
      reason,
      message,
      type: type as Event["type"],
      source: { component: this.component, host: this.host },
      firstTimestamp: timestamp,
      lastTimestamp: timestamp,
      count: 1,
      reportingComponent: this.component,
      reportingInstance: this.host,
    };
    await this.client.create(EventKind, event);
    seen.delete(key);
    seen.set(key, { name, namespace, count: 1, firstTimestamp: timestamp, lastSeenMs: at });
    while (seen.size > this.cacheSize) seen.delete(seen.keys().next().value as string);
  }

  private record(object: KubernetesObject, type: string, reason: string, message: string): void {
    const log = this.log;
    try {
      if (type !== "Normal" && type !== "Warning") {
        log.error({ type, reason }, "event type must be Normal or Warning; event dropped");
        return;
      }
      const meta = object.metadata ?? {};
      if (!object.kind || !object.apiVersion || !meta.name) {
        log.error(
          { reason, name: meta.name },
          "event object needs apiVersion, kind and metadata.name; event dropped",
        );
        return;
      }
      const ref: ObjectReference = { apiVersion: object.apiVersion, kind: object.kind, name: meta.name };
      if (meta.namespace) ref.namespace = meta.namespace;
      if (meta.uid) ref.uid = meta.uid;
      if (meta.resourceVersion) ref.resourceVersion = meta.resourceVersion;
      const objectKey = JSON.stringify([ref.apiVersion, ref.kind, ref.namespace, ref.name, ref.uid]);
      if (!this.allow(objectKey)) {
        log.debug(
          { object: `${ref.namespace ?? ""}/${ref.name}`, kind: ref.kind, reason },
          "event dropped by the spam filter",
        );
        return;
      }
      const key = JSON.stringify([
        ref.apiVersion,
        ref.kind,
        ref.namespace,
        ref.name,
        ref.uid,
        type,
        reason,
        message,
      ]);
      const chains = this.chains;
      const run = (chains.get(key) ?? Promise.resolve())
        .then(() => this.write(key, ref, type, reason, message))
        .catch((err: unknown) => {
          log.error(
            { err, object: `${ref.namespace ?? ""}/${ref.name}`, kind: ref.kind, reason },
            "unable to write event",
          );
        });
      chains.set(key, run);
      this.pending.add(run);
      void run.finally(() => {
        this.pending.delete(run);
        if (chains.get(key) === run) chains.delete(key);
      });
    } catch (err) {
      log.error({ err, reason }, "unable to record event");
    }
  }
}
