/**
 * The informer cache (controller-runtime's informerCache): one shared informer per kind, created on
 * first use and run while the cache runs. Reads of a kind whose informer is not synced yet wait for
 * it, like controller-runtime's BlockUntilSynced.
 *
 * Objects in the store are deep-frozen (see informer.ts); `get` and `list` return deep copies, so a
 * reconciler can modify what it read and send it back with `update`, exactly as it would with
 * controller-runtime (whose cache reader DeepCopies too), without ever touching the shared store.
 * `list` with `unsafeDisableDeepCopy` returns the frozen objects themselves, for readers only.
 */

import { apiVersionOf, groupKindOf, type Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { ApiError, isNotFound, notFound } from "../client/errors.js";
import type { KubeConfig } from "../client/kubeconfig.js";
import type { ResourceVersionWaiter } from "../client/own-writes.js";
import { resourcePath } from "../client/paths.js";
import { RestClient, type RestClientOptions } from "../client/rest.js";
import { matchesSelector, parseFieldSelector, parseSelector } from "../client/selector.js";
import type { ListOptions, ObjectKey } from "../client/types.js";
import { createLogger } from "../log/logger.js";
import type { Logger } from "../log/types.js";
import { type CacheKindSize, registerCacheSizeReporter } from "../metrics/cache.js";
import { deepCopyJSON, SharedInformer } from "./informer.js";
import type { ReflectorTuning } from "./reflector.js";
import { type KindScope, scopeFor, unscopedCacheWarning, validateCacheOptions } from "./scope.js";
import { keyOf, NAMESPACE_INDEX } from "./store.js";
import type { Cache, CacheOptions, IndexFunc, Informer } from "./types.js";

export interface CreateCacheOptions extends CacheOptions {
  logger?: Logger;
  /** REST options, or a RestClient to share its connection pool with the client. */
  rest?: RestClientOptions | RestClient;
  /** How long a read waits for its informer's first sync before failing (default 2 min). */
  readSyncTimeoutMs?: number;
  /** Reflector knobs (watch timeout, backoff, stall margin); the defaults follow client-go. */
  reflector?: Partial<ReflectorTuning>;
}

/** A watch the reflector knows to be stalled: no event while a fresh watch sees some, or no answer. */
export interface StalledWatch {
  kind: string;
  namespace?: string;
  since: number;
  reason: string;
}

/** controller-runtime's default SyncPeriod: 10 hours. */
export const DEFAULT_SYNC_PERIOD_MS = 10 * 60 * 60 * 1000;
const ALL_NAMESPACES = "__all_namespaces";

/** Reads before start() fail like controller-runtime's ErrCacheNotStarted. */
export class CacheNotStartedError extends Error {
  override name = "CacheNotStartedError";
  constructor() {
    super("the cache is not started, can not read objects; start the manager (or cache.start()) first");
  }
}

/**
 * The API server does not serve this kind (its CRD is not installed, or the group/version is wrong):
 * controller-runtime's NoKindMatchError. Deliberately not a NotFoundError, so `ignoreNotFound` does
 * not hide it.
 */
export class KindNotServedError extends Error {
  override name = "KindNotServedError";
  constructor(kind: Kind, path: string) {
    super(
      `the API server does not serve ${groupKindOf(kind)} ${apiVersionOf(kind)} (GET ${path} gave 404): install its CRD or fix the Kind's group, version and plural`,
    );
  }
}

/** The field index name controller-runtime uses for `matchingFields` lookups. */
export function fieldIndexName(field: string): string {
  return `field:${field}`;
}

export function createCache(kubeConfig: KubeConfig, options: CreateCacheOptions = {}): InformerCache {
  return new InformerCache(kubeConfig, options);
}

export class InformerCache implements Cache, ResourceVersionWaiter {
  readonly rest: RestClient;
  private readonly informers = new Map<string, SharedInformer>();
  /** Each informer's resolved scope, by the same key. */
  private readonly scopes = new Map<string, KindScope>();
  private readonly log: Logger;
  /** What informers and reflectors bind their own `component` to (pino would repeat the key). */
  private readonly baseLog: Logger;
  private signal: AbortSignal | undefined;
  /** How to stop each running informer (removeInformer), and its run (awaited when the cache stops). */
  private readonly running = new Map<SharedInformer, { stop: AbortController; done: Promise<void> }>();

  constructor(
    kubeConfig: KubeConfig,
    private readonly options: CreateCacheOptions = {},
  ) {
    this.rest = options.rest instanceof RestClient ? options.rest : new RestClient(kubeConfig, options.rest);
    // Failures are always logged somewhere: a reflector that retries silently is what this cache avoids.
    this.baseLog = options.logger ?? createLogger({ name: "cache" });
    this.log = this.baseLog.child({ component: "cache" });
    validateCacheOptions(options);
  }

  get started(): boolean {
    return this.signal !== undefined;
  }

  /** Starts every informer created so far and any created later; resolves once the signal aborts. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.signal) throw new Error("the cache is already started");
    this.signal = signal;
    const unregister = registerCacheSizeReporter(this);
    for (const informer of this.informers.values()) this.run(informer);
    if (!signal.aborted) {
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
    }
    await Promise.all([...this.running.values()].map((r) => r.done));
    unregister();
    this.rest.close();
  }

  /** Objects and approximate bytes per kind and informer type (the kbts_cache_* gauges). */
  cacheSizes(): CacheKindSize[] {
    return [...this.informers.values()].map((informer) => ({
      group: informer.kind.group,
      version: informer.kind.version,
      kind: informer.kind.kind,
      type: informer.kind.metadataOnly ? "metadata" : "full",
      objects: informer.store.size,
      bytes: informer.bytes,
    }));
  }

  async waitForCacheSync(signal?: AbortSignal): Promise<boolean> {
    for (const informer of this.informers.values()) {
      if (!(await informer.waitForSync(signal))) return false;
    }
    return true;
  }

  /** The shared informer of a kind; created (and started, if the cache runs) on first call. Does not wait for sync. */
  async getInformer<T extends KubernetesObject>(kind: Kind<T>): Promise<Informer<T>> {
    return this.informerFor(kind);
  }

  /** The informer of a kind, or undefined if nothing asked for it yet. */
  peekInformer<T extends KubernetesObject>(kind: Kind<T>): SharedInformer<T> | undefined {
    return this.informers.get(kindKey(kind)) as SharedInformer<T> | undefined;
  }

  async indexField<T extends KubernetesObject>(
    kind: Kind<T>,
    field: string,
    extract: IndexFunc<T>,
  ): Promise<void> {
    if (!field) throw new Error('indexField needs a field name (e.g. "spec.nodeName")');
    const informer = this.informerFor(kind);
    const name = fieldIndexName(field);
    if (informer.store.hasIndex(name)) {
      throw new Error(`an index for field "${field}" of ${groupKindOf(kind)} is already registered`);
    }
    // controller-runtime's indexByField: every value under "<ns>/<v>", and for namespaced objects
    // also under "__all_namespaces/<v>" for lookups across namespaces.
    informer.store.addIndex(name, (obj) => {
      const ns = obj.metadata?.namespace;
      const values = extract(obj);
      const out = values.map((v) => `${ns || ALL_NAMESPACES}/${v}`);
      if (ns) for (const v of values) out.push(`${ALL_NAMESPACES}/${v}`);
      return out;
    });
  }

  async get<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey): Promise<T> {
    const informer = await this.syncedInformer(kind);
    const namespace = kind.namespaced ? key.namespace : undefined;
    if (kind.namespaced && !namespace) {
      throw new Error(`${kind.kind} is namespaced: give the key's namespace for "${key.name}"`);
    }
    if (namespace) this.checkNamespace(kind, namespace, `get ${namespace}/${key.name}`);
    const obj = informer.store.get(keyOf(namespace, key.name));
    if (!obj) throw notFound(kind.plural, key.name, kind.group);
    return deepCopyJSON(obj);
  }

  /** Watches known to be stalled (see the reflector's liveness check), for /readyz. */
  stalledWatches(): StalledWatch[] {
    const out: StalledWatch[] = [];
    for (const informer of this.informers.values()) {
      for (const r of informer.reflectors) {
        const stalled = r.stats.stalled;
        if (stalled) out.push({ kind: groupKindOf(informer.kind), namespace: r.namespace, ...stalled });
      }
    }
    return out;
  }

  /** Read-your-own-writes (see client/own-writes.ts): waits until the cache reflects a write. */
  async waitForResourceVersion(
    kind: Kind,
    key: ObjectKey,
    resourceVersion: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const informer = await this.syncedInformer(kind);
    // The informer answers its waiters false when it stops (with the cache): only the caller's signal is listened to.
    return informer.waitForResourceVersion(
      kind.namespaced ? key : { name: key.name },
      resourceVersion,
      timeoutMs,
      signal,
    );
  }

  /** Read-your-own-writes for lists: waits until the kind's watches pass the newest writes (informer.ts). */
  async waitForWatchProgress(
    kind: Kind,
    newest: ReadonlyMap<string, string>,
    namespace: string | undefined,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const informer = await this.syncedInformer(kind);
    return informer.waitForWatchProgress(newest, kind.namespaced ? namespace : undefined, timeoutMs, signal);
  }

  async list<T extends KubernetesObject>(kind: Kind<T>, options: ListOptions = {}): Promise<T[]> {
    if (options.continue) {
      throw new Error(
        "the cache does not support continue tokens; list without `continue`, or use the API reader",
      );
    }
    if (options.fieldSelector && options.matchingFields) {
      throw new Error("give either fieldSelector or matchingFields, not both");
    }
    const informer = await this.syncedInformer(kind);
    const namespace = kind.namespaced ? options.namespace : undefined;
    if (namespace) this.checkNamespace(kind, namespace, `list ${groupKindOf(kind)} in ${namespace}`);
    const fields = options.fieldSelector
      ? parseFieldSelector(options.fieldSelector)
      : (options.matchingFields ?? {});
    const selector = parseSelector(options.labelSelector);
    const [first, ...rest] = Object.entries(fields);
    let candidates: Iterable<T>;
    if (first) {
      const index = fieldIndexName(first[0]);
      if (!informer.store.hasIndex(index)) {
        throw new Error(
          `no index for field "${first[0]}" of ${groupKindOf(kind)}: register it with cache.indexField(${kind.kind}, "${first[0]}", fn) before reading`,
        );
      }
      candidates = informer.store.byIndex(index, `${namespace || ALL_NAMESPACES}/${first[1]}`);
    } else if (namespace) {
      candidates = informer.store.byIndex(NAMESPACE_INDEX, namespace);
    } else {
      candidates = informer.store.values();
    }
    // Further field requirements are checked against their own indexes, in memory.
    const extra = rest.map(([field, value]) => {
      const index = fieldIndexName(field);
      if (!informer.store.hasIndex(index)) {
        throw new Error(
          `no index for field "${field}" of ${groupKindOf(kind)}: register it with cache.indexField`,
        );
      }
      return new Set(informer.store.byIndex(index, `${namespace || ALL_NAMESPACES}/${value}`));
    });
    const out: T[] = [];
    for (const obj of candidates) {
      if (!matchesSelector(selector, obj.metadata?.labels)) continue;
      if (extra.some((set) => !set.has(obj))) continue;
      out.push(options.unsafeDisableDeepCopy ? obj : deepCopyJSON(obj));
      if (options.limit !== undefined && out.length >= options.limit) break;
    }
    return out;
  }

  private checkNamespace(kind: Kind, namespace: string, what: string): void {
    // Reads come after informerFor, so the scope is known.
    const allowed = this.scopes.get(kindKey(kind))?.namespaces;
    if (allowed && !allowed.includes(namespace)) {
      throw new Error(
        `unable to ${what} because of unknown namespace for the cache (it watches ${groupKindOf(kind)} in ${allowed.join(", ")}); use the API reader for other namespaces`,
      );
    }
  }

  private informerFor<T extends KubernetesObject>(kind: Kind<T>): SharedInformer<T> {
    const key = kindKey(kind);
    let informer = this.informers.get(key);
    if (!informer) {
      const scope = scopeFor(kind, this.options);
      informer = new SharedInformer({
        rest: this.rest,
        kind,
        namespaces: scope.namespaces,
        labelSelector: scope.labelSelector,
        fieldSelector: scope.fieldSelector,
        shardSelector: scope.shardSelector,
        transform: scope.transform,
        syncPeriodMs: this.options.syncPeriodMs ?? DEFAULT_SYNC_PERIOD_MS,
        logger: this.baseLog,
        tuning: this.options.reflector,
      });
      this.informers.set(key, informer);
      this.scopes.set(key, scope);
      if (this.signal) this.run(informer);
    }
    return informer as unknown as SharedInformer<T>;
  }

  /** Lists a kind again from scratch (its shard selector changed): what no longer matches is deleted. */
  relist(kind: Kind): void {
    for (const r of this.informers.get(kindKey(kind))?.reflectors ?? []) r.relist();
  }

  /**
   * Stops a kind's informer and forgets it (controller-runtime's RemoveInformer): its reflectors end,
   * its handlers hear nothing more, and the next getInformer starts a new one. For a kind that is no
   * longer served (its CRD deleted), whose reflector would otherwise retry its list forever.
   */
  async removeInformer<T extends KubernetesObject>(kind: Kind<T>): Promise<void> {
    const key = kindKey(kind);
    const informer = this.informers.get(key);
    if (!informer) return;
    this.informers.delete(key);
    this.scopes.delete(key);
    const running = this.running.get(informer);
    this.running.delete(informer);
    running?.stop.abort();
    await running?.done;
  }

  private run(informer: SharedInformer): void {
    // A signal of its own under the cache's, so removeInformer can stop this one informer.
    const stop = new AbortController();
    const signal = AbortSignal.any([this.signal!, stop.signal]);
    // Said once per informer, when it starts: at cache start, or on first use after it.
    const scope = this.scopes.get(kindKey(informer.kind));
    const warning = scope && unscopedCacheWarning(informer.kind, scope);
    if (warning) this.log.warn({ kind: groupKindOf(informer.kind) }, warning);
    const done = informer.run(signal).catch((err) => {
      this.log.error({ err: String(err), kind: groupKindOf(informer.kind) }, "informer stopped unexpectedly");
    });
    this.running.set(informer, { stop, done });
  }

  private async syncedInformer<T extends KubernetesObject>(kind: Kind<T>): Promise<SharedInformer<T>> {
    if (!this.signal) throw new CacheNotStartedError();
    const informer = this.informerFor(kind);
    if (informer.hasSynced()) return informer;
    const timeoutMs = this.options.readSyncTimeoutMs ?? 120_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    // Fail fast when the kind is not served at all, instead of waiting out the timeout.
    const notServed = new AbortController();
    const poll = setInterval(() => {
      if (
        informer.reflectors.some(
          (r) => isNotFound(r.stats.lastError?.error) && r.stats.lastError?.phase === "list",
        )
      ) {
        notServed.abort();
      }
    }, 50);
    let synced: boolean;
    try {
      synced = await informer.waitForSync(AbortSignal.any([timeout, this.signal, notServed.signal]));
    } finally {
      clearInterval(poll);
    }
    if (!synced && notServed.signal.aborted) {
      throw new KindNotServedError(kind, resourcePath(kind));
    }
    if (!synced) {
      throw new ApiError(
        {
          apiVersion: "v1",
          kind: "Status",
          status: "Failure",
          code: 504,
          reason: "Timeout",
          message: `failed waiting for ${groupKindOf(kind)} informer to sync${this.signal.aborted ? " (cache stopped)" : ` within ${timeoutMs} ms`}`,
        },
        504,
      );
    }
    return informer;
  }
}

/** A kind's full and metadata-only informers are separate, as in controller-runtime. */
function kindKey(kind: Kind): string {
  return `${kind.group}/${kind.version}/${kind.kind}${kind.metadataOnly ? "#metadata" : ""}`;
}
