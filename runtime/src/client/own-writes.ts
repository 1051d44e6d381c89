/**
 * Read-your-own-writes for cached clients.
 *
 * The informer cache is a watch behind the API server: right after a controller writes an object, a
 * cached read of it can still return the copy from before the write. A reconciler that compares what
 * it computes with that stale copy ("status unchanged, skip the write") then skips a write it needs,
 * and a predicate that drops status-only events hides the correction (issue 19: a GPUBudget left
 * wrong with no fault at all). So the client remembers, per object, the resourceVersion of its last
 * successful write, and a cached read of that object (or a list of its kind) first waits until the
 * cache has reached that resourceVersion. If the cache does not catch up within a short bound (an
 * outage, a slow watch), the read goes to the API server instead: never older than our own write.
 *
 * ResourceVersions are compared as numbers: Kubernetes ≥ 1.35 guarantees they are decimal integers
 * that grow with every write (KEP-5504 "comparable resource version"). A value that is not a decimal
 * integer (an aggregated API server, a proxy) is only ever equal to itself.
 */

import { groupKindOf, type Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import type { ObjectKey } from "./types.js";

/** What a cache must offer for read-your-own-writes (InformerCache does). */
export interface ResourceVersionWaiter {
  /**
   * Resolves true once the cache holds `key` at `resourceVersion` or later, or has seen its watch pass
   * that point (the object was since deleted); false after `timeoutMs` or when the signal aborts.
   */
  waitForResourceVersion(
    kind: Kind,
    key: ObjectKey,
    resourceVersion: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<boolean>;

  /**
   * Resolves true once the watch of each namespace in `newest` (of `namespace` alone, when given) has
   * passed the resourceVersion there (`newest`: namespace, "" when cluster-scoped, to a decimal
   * resourceVersion): then the cache holds every write up to those. One wait for a list, however
   * many writes it must see. False after `timeoutMs` or when the signal aborts.
   */
  waitForWatchProgress?(
    kind: Kind,
    newest: ReadonlyMap<string, string>,
    namespace: string | undefined,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<boolean>;
}

/** < 0 when a is older than b, 0 when the same, > 0 when newer; undefined when not comparable. */
export function compareResourceVersions(a: string, b: string): number | undefined {
  if (a === b) return 0;
  if (!DECIMAL.test(a) || !DECIMAL.test(b)) return undefined;
  // Arbitrary length: compare by length first, then digit by digit (no Number overflow past 2^53).
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : 1;
}

/** Whether `have` is at `want` or later (an unknown order counts only when equal). */
export function resourceVersionReached(have: string | undefined, want: string): boolean {
  if (!have) return false;
  const c = compareResourceVersions(have, want);
  return c !== undefined && c >= 0;
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;

interface Written {
  key: ObjectKey;
  resourceVersion: string;
  at: number;
}

/**
 * The resourceVersions this client wrote, per object. Entries leave when a read finds the cache has
 * reached them; entries nobody reads again are dropped after `retainMs` (the cache has long caught up
 * by then), checked whenever a kind's map grows past a bound, so memory stays flat under churn.
 *
 * Kept per kind, because a cached list reads every pending write of its kind, and a controller's map
 * function lists on each event: a list need not scan (and parse the keys of) every other kind's writes.
 */
export class OwnWrites {
  /** By kind, then by namespace/name; each map in write order (for pruning). */
  private readonly written = new Map<string, Map<string, Written>>();
  /**
   * By kind: per namespace ("" when cluster-scoped), the newest decimal resourceVersion written there
   * and not yet seen reached by a list; and a count of writes, which names the map's state.
   */
  private readonly newest = new Map<
    string,
    { byNamespace: Map<string, Pick<Written, "resourceVersion" | "at">>; writes: number }
  >();
  /** By kind: the writes whose resourceVersion is not a decimal (a list waits on each of them by key). */
  private readonly undecimal = new Map<string, Set<string>>();
  /** The cache waits in flight, by write (or by list scope and state): every read that needs one shares it. */
  private readonly waits = new Map<string, Promise<boolean>>();
  private readonly retainMs: number;

  constructor(options: { retainMs?: number } = {}) {
    this.retainMs = options.retainMs ?? 60_000;
  }

  get size(): number {
    let n = 0;
    for (const writes of this.written.values()) n += writes.size;
    return n;
  }

  /** Records a successful write's resourceVersion (a later one replaces an earlier one). */
  record(kind: Kind, key: ObjectKey, resourceVersion: string | undefined): void {
    if (!resourceVersion) return;
    const id = kindId(kind);
    let writes = this.written.get(id);
    if (!writes) {
      writes = new Map();
      this.written.set(id, writes);
    }
    const k = objectId(kind, key);
    const old = writes.get(k);
    if (old && compareResourceVersions(old.resourceVersion, resourceVersion) === 1) return;
    writes.delete(k); // re-insert so the map stays in write order for pruning
    const namespace = kind.namespaced ? key.namespace : undefined;
    writes.set(k, {
      key: namespace ? { namespace, name: key.name } : { name: key.name },
      resourceVersion,
      at: Date.now(),
    });
    if (writes.size > PRUNE_ABOVE) this.prune(id, writes);
    if (!DECIMAL.test(resourceVersion)) {
      let undecimal = this.undecimal.get(id);
      if (!undecimal) {
        undecimal = new Set();
        this.undecimal.set(id, undecimal);
      }
      undecimal.add(k);
    } else {
      let newest = this.newest.get(id);
      if (!newest) {
        newest = { byNamespace: new Map(), writes: 0 };
        this.newest.set(id, newest);
      }
      const was = newest.byNamespace.get(namespace ?? "");
      if (was === undefined || (compareResourceVersions(resourceVersion, was.resourceVersion) ?? 0) > 0)
        newest.byNamespace.set(namespace ?? "", { resourceVersion, at: Date.now() });
      newest.writes++;
    }
  }

  /** The resourceVersion last written for this object, if a read still has to wait for it. */
  pending(kind: Kind, key: ObjectKey): string | undefined {
    return this.written.get(kindId(kind))?.get(objectId(kind, key))?.resourceVersion;
  }

  /** Every pending write of a kind (in one namespace, or all), for list reads. */
  pendingOfKind(kind: Kind, namespace?: string): { key: ObjectKey; resourceVersion: string }[] {
    const writes = this.written.get(kindId(kind));
    if (!writes) return [];
    const inNamespace = kind.namespaced && namespace ? namespace : undefined;
    const out: { key: ObjectKey; resourceVersion: string }[] = [];
    for (const w of writes.values()) {
      if (inNamespace === undefined || w.key.namespace === inNamespace)
        out.push({ key: w.key, resourceVersion: w.resourceVersion });
    }
    return out;
  }

  /** Forgets a write the cache has reached (unless a newer write was recorded meanwhile). */
  settle(kind: Kind, key: ObjectKey, resourceVersion: string): void {
    const writes = this.written.get(kindId(kind));
    const k = objectId(kind, key);
    if (writes?.get(k)?.resourceVersion === resourceVersion) writes.delete(k);
  }

  /**
   * Waits for the cache to reach one write, with `start` (which resolves true once it has), and
   * settles the write when it has. Reads that need the same write at the same time share one wait:
   * at start-up every pod event's map function lists while the cache lags behind hundreds of status
   * writes, and a wait (a timer and a waiter) per read and write came to hundreds of MB of garbage.
   */
  wait(kind: Kind, key: ObjectKey, resourceVersion: string, start: () => Promise<boolean>): Promise<boolean> {
    return this.share(`${entryKey(kind, key)}@${resourceVersion}`, () =>
      start().then((reached) => {
        if (reached) this.settle(kind, key, resourceVersion);
        return reached;
      }),
    );
  }

  /**
   * Waits until a list of `kind` (in `namespace`, or all) would show every pending write: one wait on
   * the watches' progress past the newest writes (waitForWatchProgress), shared by every list of the
   * same scope while no write is recorded, plus a wait per write whose resourceVersion is not a
   * decimal (or every write, when the cache cannot wait on progress). A list per event over hundreds
   * of pending writes, each list attaching a callback to each write's wait, held a million promise
   * reactions in a shard at start-up; this holds one per list.
   */
  beforeList(
    kind: Kind,
    namespace: string | undefined,
    waiter: ResourceVersionWaiter,
    timeoutMs: number,
  ): Promise<unknown> {
    const id = kindId(kind);
    const writes = this.written.get(id);
    if (!writes || writes.size === 0) return Promise.resolve();
    const scope = kind.namespaced && namespace ? namespace : undefined;
    const byProgress = waiter.waitForWatchProgress?.bind(waiter);
    const waits: Promise<boolean>[] = [];
    // A list per event must not walk every pending write: with progress to wait on, only the few
    // writes whose resourceVersion is not a decimal are waited on one by one.
    for (const w of byProgress ? this.undecimalWrites(id, writes) : writes.values()) {
      if (scope !== undefined && w.key.namespace !== scope) continue;
      waits.push(
        this.wait(kind, w.key, w.resourceVersion, () =>
          waiter.waitForResourceVersion(kind, w.key, w.resourceVersion, timeoutMs),
        ),
      );
    }
    const newest = this.newest.get(id);
    if (byProgress && newest && newest.byNamespace.size > 0) {
      // The targets are read when the shared wait starts, not by every list that joins it.
      waits.push(
        this.share(`${id}|${scope ?? "*"}#${newest.writes}`, () => {
          const targets = this.progressTargets(newest.byNamespace, scope);
          if (targets.size === 0) return Promise.resolve(true);
          return byProgress(kind, targets, scope, timeoutMs).then((reached) => {
            if (reached) this.settleUpTo(kind, targets);
            return reached;
          });
        }),
      );
    }
    return waits.length === 1 ? (waits[0] as Promise<boolean>) : Promise.all(waits);
  }

  /** Forgets the decimal writes at or below the resourceVersions a list saw its watches pass. */
  private settleUpTo(kind: Kind, reached: ReadonlyMap<string, string>): void {
    const id = kindId(kind);
    const writes = this.written.get(id);
    for (const [k, w] of writes ?? []) {
      const upTo = reached.get(w.key.namespace ?? "");
      if (
        upTo !== undefined &&
        DECIMAL.test(w.resourceVersion) &&
        (compareResourceVersions(w.resourceVersion, upTo) ?? 1) <= 0
      )
        writes?.delete(k);
    }
    const newest = this.newest.get(id);
    for (const [ns, rv] of reached)
      if (newest?.byNamespace.get(ns)?.resourceVersion === rv) newest.byNamespace.delete(ns);
  }

  /** What the watches must pass: the newest write of each namespace in scope (older than retainMs dropped, as in prune). */
  private progressTargets(
    byNamespace: Map<string, Pick<Written, "resourceVersion" | "at">>,
    scope: string | undefined,
  ): Map<string, string> {
    const cutoff = Date.now() - this.retainMs;
    const targets = new Map<string, string>();
    for (const [ns, w] of byNamespace) {
      if (w.at <= cutoff) byNamespace.delete(ns);
      else if (scope === undefined || ns === scope) targets.set(ns, w.resourceVersion);
    }
    return targets;
  }

  /** The kind's pending writes whose resourceVersion is not a decimal; forgets those settled or replaced. */
  private undecimalWrites(id: string, writes: Map<string, Written>): Written[] {
    const ids = this.undecimal.get(id);
    const out: Written[] = [];
    for (const k of ids ?? []) {
      const w = writes.get(k);
      if (w && !DECIMAL.test(w.resourceVersion)) out.push(w);
      else ids?.delete(k);
    }
    return out;
  }

  /** Runs `start` once for every concurrent caller with this id. */
  private share(id: string, start: () => Promise<boolean>): Promise<boolean> {
    const shared = this.waits.get(id);
    if (shared) return shared;
    const waiting = start().finally(() => this.waits.delete(id));
    this.waits.set(id, waiting);
    return waiting;
  }

  private prune(id: string, writes: Map<string, Written>): void {
    const cutoff = Date.now() - this.retainMs;
    const undecimal = this.undecimal.get(id);
    for (const [k, w] of writes) {
      if (w.at > cutoff) break; // insertion order is write order
      writes.delete(k);
      undecimal?.delete(k);
    }
  }
}

const PRUNE_ABOVE = 1024;

function kindId(kind: Kind): string {
  return `${groupKindOf(kind)}`;
}

function objectId(kind: Kind, key: ObjectKey): string {
  return `${kind.namespaced && key.namespace ? `${key.namespace}/` : ""}${key.name}`;
}

function entryKey(kind: Kind, key: ObjectKey): string {
  return `${kindId(kind)}|${objectId(kind, key)}`;
}

/** One write this client is about to send (see WriteObserver). */
export interface ObservedWrite {
  kind: Kind;
  /** Unknown before a create with only generateName: known from the answer. */
  key: ObjectKey | undefined;
  /** "status", "scale", ... or undefined for the object itself. */
  subresource: string | undefined;
  verb: "create" | "update" | "patch" | "apply" | "delete";
  /** What is sent (an object or a patch), before the API server sees it. */
  body: unknown;
  /** The resourceVersion the request carries as a precondition, if any. */
  resourceVersion: string | undefined;
}

/**
 * Told about the writes a reconcile makes (see observeWritesTo): the controller uses it to know
 * which writes are its own (own-write suppression, hot-loop detection). The
 * returned function is called once the write is answered: with the object the API server returned,
 * or undefined when it failed or returned none.
 */
export interface WriteObserver {
  willWrite(write: ObservedWrite): (answer: KubernetesObject | undefined) => void;
}

/**
 * Which writes are a reconcile's own. While a controller reconciles an object it registers an
 * observer for it with the manager's client; a write through that client is told to the observers of
 * the object it writes and of the owners its body names (metadata.ownerReferences: a child the
 * reconcile creates or updates). So a reconcile's writes to its own object (status above all) and to
 * its children are attributed to it, however many reconciles run at once, with one map lookup per
 * write and nothing per promise (AsyncLocalStorage, which would follow every await instead, costs a
 * hook per promise on Node 20, a measurable share of a busy webhook's time). Writes through any
 * other client are someone else's. The one imprecision: a write through the same client, made
 * outside the reconcile (a webhook, another controller) while the object is being reconciled,
 * counts as the reconcile's own.
 */
export class WriteObservers {
  private readonly byObject = new Map<string, Set<WriteObserver>>();

  /** Tells observer about writes to the object (and to objects it owns) until the returned function is called. */
  observe(kind: Kind, key: ObjectKey, observer: WriteObserver): () => void {
    const id = entryKey(kind, key);
    let set = this.byObject.get(id);
    if (!set) {
      set = new Set();
      this.byObject.set(id, set);
    }
    set.add(observer);
    return () => {
      const s = this.byObject.get(id);
      s?.delete(observer);
      if (s?.size === 0) this.byObject.delete(id);
    };
  }

  /** The observers a write of `key` with this body is told about (none: nobody is reconciling it). */
  of(kind: Kind, key: ObjectKey | undefined, body: unknown): WriteObserver[] {
    if (this.byObject.size === 0) return [];
    const out = new Set<WriteObserver>();
    if (key) for (const o of this.byObject.get(entryKey(kind, key)) ?? []) out.add(o);
    const refs = (body as KubernetesObject | undefined)?.metadata?.ownerReferences;
    if (Array.isArray(refs)) {
      for (const ref of refs) {
        const slash = ref.apiVersion?.indexOf("/") ?? -1;
        const group = slash < 0 ? "" : ref.apiVersion.slice(0, slash);
        const gk = group === "" ? ref.kind : `${ref.kind}.${group}`;
        // An owner is in the child's namespace, or cluster-scoped. A create with only generateName
        // has no key yet: its body names the namespace.
        const childNs = key?.namespace ?? (body as KubernetesObject | undefined)?.metadata?.namespace;
        const ns = childNs ? `${childNs}/` : "";
        for (const id of [`${gk}|${ns}${ref.name}`, `${gk}|${ref.name}`]) {
          for (const o of this.byObject.get(id) ?? []) out.add(o);
        }
      }
    }
    return [...out];
  }
}

/** A client whose writes a controller can observe (the API client, and the manager's fenced one). */
export interface WriteObservable {
  observeWritesTo(kind: Kind, key: ObjectKey, observer: WriteObserver): () => void;
}

export function isWriteObservable(client: object): client is WriteObservable {
  return typeof (client as Partial<WriteObservable>).observeWritesTo === "function";
}
