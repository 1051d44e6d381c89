import type { Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import type { LabelSelectorInput } from "../client/selector.js";
import type { Reader } from "../client/types.js";

/** An informer event, with the old object on update (client-node's informer gives none; ours does). */
export type InformerEvent<T extends KubernetesObject = KubernetesObject> =
  | {
      type: "add";
      object: T;
      isInInitialList: boolean;
      /** Made up by a relist after the first: the object may have had versions never seen as events. */
      relisted?: boolean;
    }
  | {
      type: "update";
      oldObject: T;
      object: T;
      /** Made up by a relist: changes between oldObject and object may never have been seen as events. */
      relisted?: boolean;
    }
  | { type: "delete"; object: T; deleteStateUnknown: boolean };

export type InformerHandler<T extends KubernetesObject = KubernetesObject> = (
  event: InformerEvent<T>,
) => void;

/** Extracts the values an object is indexed under (controller-runtime's IndexerFunc). */
export type IndexFunc<T extends KubernetesObject> = (obj: T) => string[];

export interface Informer<T extends KubernetesObject = KubernetesObject> {
  /** Registers a handler; existing objects are replayed to it as adds. Returns an unsubscribe function. */
  addEventHandler(handler: InformerHandler<T>): () => void;
  hasSynced(): boolean;
  /**
   * Resolves true once synced, false if the signal aborts first; it waits on the sync itself, not
   * on a timer. Optional so Informers written before it (tests' fakes) still type-check; the cache's
   * informers all have it.
   */
  waitForSync?(signal?: AbortSignal): Promise<boolean>;
}

/** A transform applied to each object before it is stored; return what the operator needs. */
export type TransformFunc = (obj: KubernetesObject) => KubernetesObject;

/**
 * What the cache holds, for every kind (the defaults) and per kind (`byObject`): controller-runtime's
 * cache.Options. Each kind's informer lists and watches only what its scope lets through, so the
 * rest is never held in memory; reads of that kind then see only those objects.
 */
export interface CacheOptions {
  /** Watch only these namespaces (all when absent): controller-runtime's DefaultNamespaces. */
  namespaces?: string[];
  /** Every kind's server-side label selector, unless its byObject entry gives one. */
  defaultLabelSelector?: LabelSelectorInput;
  /** Every kind's server-side field selector (e.g. "metadata.name!=x"), unless byObject gives one. */
  defaultFieldSelector?: string;
  /** Every kind's transform unless byObject gives one; by default managedFields are dropped. */
  defaultTransform?: TransformFunc;
  /**
   * Per-kind scope keyed by "group/version/Kind" ("v1/Secret" for core, see transformKey(kind)):
   * controller-runtime's ByObject. Each field given replaces the cache-wide default for that kind.
   * It applies to the kind's full and metadata-only informers alike; a metadata-only informer keeps
   * only the apiVersion, kind and metadata of what the transform returns.
   */
  byObject?: Record<string, ByObject>;
  /** Per-kind transforms keyed like byObject; shorthand for `byObject[key].transform`. */
  transforms?: Record<string, TransformFunc>;
  /** Default resync period in ms (controller-runtime: 10h with jitter). */
  syncPeriodMs?: number;
  /** Per-kind selectors keyed like byObject; shorthand for `byObject[key].labelSelector/fieldSelector`. */
  selectors?: Record<string, KindSelectors>;
}

/** controller-runtime's cache.ByObject: where one kind is watched and what of it is kept. */
export interface ByObject extends KindSelectors {
  /** Watch this kind only in these namespaces (replaces CacheOptions.namespaces for it; namespaced kinds only). */
  namespaces?: string[];
  /** Applied to each object before it is stored (e.g. keep only the fields the controller reads). */
  transform?: TransformFunc;
  /**
   * KEP-5866's server-side shard selector (e.g. `shardRange(object.metadata.uid, '0x0…', '0x8…')`), read
   * for each list and watch, so it may change; after a change, relist the kind (InformerCache.relist).
   * Needs kube-apiserver 1.36+ with the ShardedListAndWatch feature gate; sharding sets it.
   */
  shardSelector?: () => string | undefined;
}

export interface KindSelectors {
  /** A selector string, a label map or a LabelSelector. */
  labelSelector?: LabelSelectorInput;
  /** A server-side field selector, e.g. "spec.nodeName=node-1". */
  fieldSelector?: string;
}

/** The informer cache: one reflector per kind, started on first use. */
export interface Cache extends Reader {
  getInformer<T extends KubernetesObject>(kind: Kind<T>): Promise<Informer<T>>;
  /** Registers a field index (before start), then `list(kind, { matchingFields: { [field]: value } })` uses it. */
  indexField<T extends KubernetesObject>(kind: Kind<T>, field: string, extract: IndexFunc<T>): Promise<void>;
  /** Resolves true when every started informer has synced, false when the signal aborts first. */
  waitForCacheSync(signal?: AbortSignal): Promise<boolean>;
  /** Stops a kind's informer and forgets it; the next getInformer starts a new one. */
  removeInformer<T extends KubernetesObject>(kind: Kind<T>): Promise<void>;
  start(signal: AbortSignal): Promise<void>;
}
