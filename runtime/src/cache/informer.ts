/**
 * A shared informer: one store per kind, filled by one reflector per watched namespace (or one for
 * all), fanning events out to handlers. Each object is transformed (managedFields dropped by
 * default), stamped with apiVersion/kind (and, in a metadata-only informer, cut back to
 * apiVersion/kind/metadata after the transform) and deep-frozen before it is stored: handlers and
 * predicates receive the stored objects themselves, and freezing makes a handler that mutates one
 * fail loudly instead of silently corrupting what every other reader sees. Reads through the cache
 * hand out mutable deep copies instead (see cache.ts).
 */

import { groupKindOf, type Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { withTypeMeta } from "../client/client.js";
import { toPartialObjectMetadata } from "../client/metadata.js";
import { compareResourceVersions, resourceVersionReached } from "../client/own-writes.js";
import type { RestClient } from "../client/rest.js";
import type { ObjectKey } from "../client/types.js";
import type { Logger } from "../log/types.js";
import { Reflector, type ReflectorSink, type ReflectorTuning } from "./reflector.js";
import { keyOf, NAMESPACE_INDEX, Store, storeKey } from "./store.js";
import type { Informer, InformerEvent, InformerHandler, TransformFunc } from "./types.js";

export interface SharedInformerOptions {
  rest: RestClient;
  kind: Kind;
  /** Namespaces to watch; undefined = all (always all for cluster-scoped kinds). */
  namespaces?: string[];
  labelSelector?: string;
  fieldSelector?: string;
  /** KEP-5866's shard selector, read for each list and watch (see ReflectorOptions). */
  shardSelector?: () => string | undefined;
  transform: TransformFunc;
  /** Resync period in ms; 0 disables. Each informer draws its own period from [0.9, 1.1)·this. */
  syncPeriodMs: number;
  logger: Logger;
  tuning?: Partial<ReflectorTuning>;
}

export class SharedInformer<T extends KubernetesObject = KubernetesObject> implements Informer<T> {
  readonly store = new Store<T>();
  readonly kind: Kind;
  readonly reflectors: Reflector[] = [];
  private readonly handlers = new Set<InformerHandler<T>>();
  private readonly unsyncedScopes: Set<string>;
  private syncWaiters: (() => void)[] = [];
  /**
   * Read-your-own-writes waiters (waitForResourceVersion, waitForWatchProgress), re-checked on every
   * event and bookmark and answered false when the informer stops: so no waiter needs a listener on
   * the cache's long-lived signal (hundreds of pending writes would pile hundreds up there).
   */
  private readonly progressWaiters = new Set<{ check(): void; cancel(): void }>();
  private running = false;
  private readonly log: Logger;
  /** Approximate JSON length of each stored object (see freezeAndMeasure), and their sum. */
  private readonly sizes = new WeakMap<object, number>();
  private storedBytes = 0;

  constructor(private readonly options: SharedInformerOptions) {
    this.kind = options.kind;
    this.log = options.logger.child({ component: "informer", kind: groupKindOf(options.kind) });
    const scopes = options.kind.namespaced && options.namespaces ? options.namespaces : [undefined];
    this.unsyncedScopes = new Set(scopes.map((s) => s ?? ""));
    for (const namespace of scopes) {
      this.reflectors.push(
        new Reflector({
          rest: options.rest,
          kind: options.kind,
          namespace,
          labelSelector: options.labelSelector,
          fieldSelector: options.fieldSelector,
          shardSelector: options.shardSelector,
          sink: this.sink(namespace),
          logger: options.logger,
          tuning: options.tuning,
        }),
      );
    }
  }

  hasSynced(): boolean {
    return this.unsyncedScopes.size === 0;
  }

  /** The approximate size of what the store holds: the summed JSON length of its objects. */
  get bytes(): number {
    return this.storedBytes;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Resolves true once synced, false if the signal aborts first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.hasSynced()) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve(true);
      };
      const onAbort = () => {
        this.syncWaiters = this.syncWaiters.filter((w) => w !== waiter);
        resolve(false);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.syncWaiters.push(waiter);
    });
  }

  /**
   * Whether the store reflects a write of `key` at `resourceVersion`: it holds the object at that
   * version or later, or the reflector of its namespace has seen the stream pass that version (so a
   * later delete is reflected too).
   */
  reached(key: ObjectKey, resourceVersion: string): boolean {
    const obj = this.store.get(keyOf(key.namespace, key.name));
    if (resourceVersionReached(obj?.metadata?.resourceVersion, resourceVersion)) return true;
    const reflector =
      this.reflectors.length === 1
        ? this.reflectors[0]
        : this.reflectors.find((r) => r.namespace === key.namespace);
    return (
      reflector !== undefined && resourceVersionReached(reflector.stats.lastResourceVersion, resourceVersion)
    );
  }

  /** Resolves true once `reached(key, resourceVersion)`; false after timeoutMs, on abort, or when the informer stops. */
  waitForResourceVersion(
    key: ObjectKey,
    resourceVersion: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    return this.waitUntil(() => this.reached(key, resourceVersion), timeoutMs, signal);
  }

  /**
   * Resolves true once each watch has passed the newest write in its namespace (`newest`: namespace,
   * "" when cluster-scoped, to a decimal resourceVersion; only `namespace`'s, when given): a watch for
   * every namespace must pass the newest of all. Then the store reflects every write up to those.
   */
  waitForWatchProgress(
    newest: ReadonlyMap<string, string>,
    namespace: string | undefined,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const targets: [Reflector, string][] = [];
    for (const r of this.reflectors) {
      let want: string | undefined;
      if (r.namespace === undefined)
        want = namespace !== undefined ? newest.get(namespace) : newestOf(newest.values());
      else if (namespace === undefined || r.namespace === namespace) want = newest.get(r.namespace);
      if (want !== undefined) targets.push([r, want]);
    }
    return this.waitUntil(
      () => targets.every(([r, want]) => resourceVersionReached(r.stats.lastResourceVersion, want)),
      timeoutMs,
      signal,
    );
  }

  /** Resolves true once `reached()` (checked on every event and bookmark); false after timeoutMs, on abort, or when the informer stops. */
  private waitUntil(reached: () => boolean, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (reached()) return Promise.resolve(true);
    if (signal?.aborted || timeoutMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.progressWaiters.delete(waiter);
        resolve(value);
      };
      const waiter = {
        check: () => {
          if (reached()) done(true);
        },
        cancel: () => done(false),
      };
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.progressWaiters.add(waiter);
    });
  }

  addEventHandler(handler: InformerHandler<T>): () => void {
    this.handlers.add(handler);
    // Like client-go, a late handler first sees everything already known, as initial-list adds.
    for (const object of this.store.values()) {
      this.call(handler, { type: "add", object, isInInitialList: true });
    }
    return () => {
      this.handlers.delete(handler);
    };
  }

  /** Runs the reflectors and the resync timer until the signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    if (this.running) throw new Error(`informer for ${groupKindOf(this.kind)} is already running`);
    this.running = true;
    const resync = this.startResync(signal);
    try {
      await Promise.all(this.reflectors.map((r) => r.run(signal)));
    } finally {
      if (resync) clearTimeout(resync.timer);
      this.running = false;
      for (const w of this.progressWaiters) w.cancel();
    }
  }

  private startResync(signal: AbortSignal): { timer: NodeJS.Timeout | undefined } | undefined {
    const period = this.options.syncPeriodMs;
    if (!(period > 0)) return undefined;
    const state: { timer: NodeJS.Timeout | undefined } = { timer: undefined };
    const schedule = () => {
      // controller-runtime's calculateResyncPeriod: jitter in [0.9, 1.1) so informers spread out.
      const jittered = period * (0.9 + Math.random() * 0.2);
      state.timer = setTimeout(
        () => {
          if (signal.aborted) return;
          if (this.hasSynced()) {
            // A resync re-delivers every object as an update whose old and new are the same object.
            for (const obj of [...this.store.values()])
              this.emit({ type: "update", oldObject: obj, object: obj });
          }
          schedule();
        },
        Math.min(jittered, 2 ** 31 - 1),
      );
      state.timer.unref();
    };
    schedule();
    return state;
  }

  /** Re-delivers every object as an update whose old and new are the same object (once synced). */
  resync(): void {
    if (!this.hasSynced()) return;
    for (const obj of [...this.store.values()]) this.emit({ type: "update", oldObject: obj, object: obj });
  }

  private prepare(raw: KubernetesObject): T {
    // A relist sends again every object the store holds. One at the version held is the held one: kept,
    // not prepared again. A shard taking up ranges relists what it has beside what it gains, and held a
    // second copy of everything it already had until the list ended.
    const rv = raw.metadata?.resourceVersion;
    if (rv) {
      const held = this.store.get(storeKey(raw));
      if (held?.metadata?.resourceVersion === rv) return held;
    }
    // Metadata-only informers store PartialObjectMetadata typed as their kind, whatever was sent and
    // whatever the transform returns: a kind's transform serves its full informer too, and one that
    // hands back a whole object would otherwise break the memory promise of a metadata-only watch.
    // The transform's metadata (e.g. managedFields dropped) is what is kept.
    const metadataOnly = this.kind.metadataOnly;
    const typed = metadataOnly ? toPartialObjectMetadata(this.kind, raw) : withTypeMeta(this.kind, raw);
    const transformed = this.options.transform(typed);
    const obj = metadataOnly ? toPartialObjectMetadata(this.kind, transformed) : transformed;
    this.sizes.set(obj, freezeAndMeasure(obj));
    return obj as T;
  }

  /** Stores an object, keeping the byte count; returns the one it replaced. */
  private put(obj: T): T | undefined {
    const old = this.store.set(obj);
    this.storedBytes += this.sizeOf(obj) - (old ? this.sizeOf(old) : 0);
    return old;
  }

  private drop(key: string): T | undefined {
    const old = this.store.delete(key);
    if (old) this.storedBytes -= this.sizeOf(old);
    return old;
  }

  private sizeOf(obj: T): number {
    let size = this.sizes.get(obj);
    // Stored without prepare (a custom sink user): measured once, here.
    if (size === undefined) {
      size = freezeAndMeasure(obj);
      this.sizes.set(obj, size);
    }
    return size;
  }

  /** What the reflector of one namespace (undefined: all) feeds; public for tests and custom sources. */
  sink(namespace?: string): ReflectorSink {
    const scope = namespace ?? "";
    return {
      prepare: (raw) => this.prepare(raw),
      replace: (items) => {
        const initial = this.unsyncedScopes.has(scope);
        const seen = new Set<string>();
        for (const item of items) {
          const obj = item as T;
          const key = storeKey(obj);
          seen.add(key);
          const old = this.put(obj);
          if (!old) {
            this.emit(
              initial
                ? { type: "add", object: obj, isInInitialList: true }
                : { type: "add", object: obj, isInInitialList: false, relisted: true },
            );
          } else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) {
            this.emit({ type: "update", oldObject: old, object: obj, relisted: true });
          }
        }
        // Whatever this scope held and the fresh list lacks was deleted while we were not watching;
        // its final state is unknown, as client-go's DeletedFinalStateUnknown says.
        const held = namespace ? this.store.byIndex(NAMESPACE_INDEX, namespace) : [...this.store.values()];
        for (const old of held) {
          const key = storeKey(old);
          if (seen.has(key)) continue;
          this.drop(key);
          this.emit({ type: "delete", object: old, deleteStateUnknown: true });
        }
        if (initial) {
          this.unsyncedScopes.delete(scope);
          if (this.hasSynced()) {
            this.log.debug({ objects: this.store.size }, "synced");
            const waiters = this.syncWaiters;
            this.syncWaiters = [];
            for (const w of waiters) w();
          }
        }
      },
      upsert: (prepared) => {
        const obj = prepared as T;
        const old = this.put(obj);
        if (old) this.emit({ type: "update", oldObject: old, object: obj });
        else this.emit({ type: "add", object: obj, isInInitialList: false });
      },
      remove: (prepared) => {
        const obj = prepared as T;
        this.drop(storeKey(obj));
        this.emit({ type: "delete", object: obj, deleteStateUnknown: false });
      },
      progress: () => {
        for (const w of this.progressWaiters) w.check();
      },
    };
  }

  private emit(event: InformerEvent<T>): void {
    for (const handler of this.handlers) this.call(handler, event);
  }

  private call(handler: InformerHandler<T>, event: InformerEvent<T>): void {
    try {
      handler(event);
    } catch (err) {
      // A failing handler must not stop the watch or starve the other handlers.
      this.log.error(
        { err: err instanceof Error ? err.message : String(err), event: event.type },
        "informer event handler threw",
      );
    }
  }
}

/** controller-runtime's calculateResyncPeriod: jitter in [0.9, 1.1) so informers spread out. */
export function jitteredResyncPeriod(periodMs: number): number {
  return periodMs * (0.9 + Math.random() * 0.2);
}

/**
 * Deep copy of a JSON value (what the store holds). A plain recursive copy is ~8x faster than
 * structuredClone or a JSON round trip for API objects, which matters when a list copies thousands.
 */
export function deepCopyJSON<V>(value: V): V {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = deepCopyJSON(value[i]);
    return out as V;
  }
  const out: Record<string, unknown> = {};
  for (const key in value) out[key] = deepCopyJSON((value as Record<string, unknown>)[key]);
  return out as V;
}

/** Freezes an object graph in place (plain JSON: objects and arrays). */
export function deepFreeze<V>(value: V): V {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Freezes a JSON value in place (as deepFreeze) and returns the length of its JSON text, roughly:
 * strings count their UTF-16 length and escapes are ignored. One walk, which the store needed
 * anyway to freeze, gives the cache's byte gauges without serialising anything.
 */
export function freezeAndMeasure(value: unknown): number {
  switch (typeof value) {
    case "string":
      return value.length + 2;
    case "number":
      return String(value).length;
    case "boolean":
      return value ? 4 : 5;
    case "object":
      break;
    default:
      return 0; // undefined and functions do not appear in JSON
  }
  if (value === null) return 4;
  let size = 2;
  let members = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      size += freezeAndMeasure(item);
      members++;
    }
  } else {
    const record = value as Record<string, unknown>;
    for (const key in record) {
      const child = record[key];
      if (child === undefined) continue;
      size += key.length + 3 + freezeAndMeasure(child);
      members++;
    }
  }
  if (!Object.isFrozen(value)) Object.freeze(value);
  return members > 1 ? size + members - 1 : size;
}

/** The default transform: managedFields are large and of no use to a controller's reads. */
export function dropManagedFields(obj: KubernetesObject): KubernetesObject {
  if (obj.metadata?.managedFields !== undefined) delete obj.metadata.managedFields;
  return obj;
}

/** The newest of decimal resourceVersions (compared as numbers of any length). */
function newestOf(resourceVersions: Iterable<string>): string | undefined {
  let newest: string | undefined;
  for (const rv of resourceVersions) {
    if (newest === undefined || (compareResourceVersions(rv, newest) ?? 0) > 0) newest = rv;
  }
  return newest;
}
