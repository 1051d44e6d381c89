import type { KubernetesObject, LabelSelector } from "../api/meta.js";
import type { Reader } from "../client/types.js";
import type { Kind } from "../kinds.js";

/** An informer event, with the old object on update (client-node's informer gives none; ours does). */
export type InformerEvent<T extends KubernetesObject = KubernetesObject> =
  | { type: "add"; object: T; isInInitialList: boolean }
  | { type: "update"; oldObject: T; object: T }
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
}

/** A transform applied to each object before it is stored; return what the operator needs. */
export type TransformFunc = (obj: KubernetesObject) => KubernetesObject;

export interface CacheOptions {
  /** Watch only these namespaces (all when absent). */
  namespaces?: string[];
  /** Per-kind transforms keyed by "group/version/Kind" ("v1/Pod" for core); managedFields are dropped by default. */
  transforms?: Record<string, TransformFunc>;
  /** Default resync period in ms (controller-runtime: 10h with jitter). */
  syncPeriodMs?: number;
  /**
   * Per-kind server-side filters keyed like `transforms` ("v1/Pod"): that kind's informer lists and
   * watches only matching objects (controller-runtime's ByObject Label/Field), so the rest is never
   * held in memory. Reads of that kind then see only those objects.
   */
  selectors?: Record<string, KindSelectors>;
}

export interface KindSelectors {
  /** A selector string, a label map or a LabelSelector. */
  labelSelector?: string | Record<string, string> | LabelSelector;
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
  start(signal: AbortSignal): Promise<void>;
}
