import type { Kind } from "../api/kind.js";
import type { KubernetesObject, LabelSelector } from "../api/meta.js";

/** namespace/name of one object; no namespace for cluster-scoped kinds. */
export interface ObjectKey {
  namespace?: string;
  name: string;
}

export interface ListOptions {
  /** Only objects of this namespace (omit for all namespaces). */
  namespace?: string;
  /** A selector string ("app=x,tier!=db"), a label map (all must match) or a LabelSelector. */
  labelSelector?: string | Record<string, string> | LabelSelector;
  /** Exact-match lookups on indexes registered with `Cache.indexField` (cache reads only). */
  matchingFields?: Record<string, string>;
  /** Server-side field selector (uncached reads only). */
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  /**
   * Cache reads only: the cache's own objects instead of deep copies (controller-runtime's
   * UnsafeDisableDeepCopy). They are deep-frozen, so writing to one throws rather than changing the
   * cache for everyone. For a reconciler that only reads a large list (counting a namespace's pods on
   * every pod event), copying each object is most of its work. Reads from the API server ignore it.
   */
  unsafeDisableDeepCopy?: boolean;
}

export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  /** How the API server treats unknown or duplicate fields: "Strict" rejects, "Warn" (its default) warns, "Ignore" drops silently. */
  fieldValidation?: "Ignore" | "Warn" | "Strict";
}

export type PropagationPolicy = "Foreground" | "Background" | "Orphan";

export interface DeleteOptions {
  propagationPolicy?: PropagationPolicy;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

/** A patch body with its type; build one with mergePatch(), jsonPatch() or mergeFrom(). */
export type Patch =
  | { type: "merge"; data: Record<string, unknown> }
  | { type: "json"; data: JsonPatchOperation[] }
  | { type: "strategic"; data: Record<string, unknown> };

export interface JsonPatchOperation {
  op: "add" | "remove" | "replace" | "move" | "copy" | "test";
  path: string;
  value?: unknown;
  from?: string;
}

export interface ApplyOptions {
  fieldManager: string;
  force?: boolean;
  dryRun?: boolean;
}

export interface Reader {
  /** Throws NotFoundError when the object does not exist. */
  get<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey): Promise<T>;
  list<T extends KubernetesObject>(kind: Kind<T>, options?: ListOptions): Promise<T[]>;
}

/**
 * Writes, as controller-runtime's: each fills the object passed in with the API server's answer
 * (new resourceVersion, uid, defaults) and returns it, so `update` then `status().update` on the same
 * object does not conflict. A patch given a bare ObjectKey only returns the answer.
 */
export interface Writer {
  create<T extends KubernetesObject>(kind: Kind<T>, obj: T, options?: WriteOptions): Promise<T>;
  /** Replaces the object; a stale metadata.resourceVersion gives ConflictError. Status is ignored when the kind has a status subresource. */
  update<T extends KubernetesObject>(kind: Kind<T>, obj: T, options?: WriteOptions): Promise<T>;
  delete<T extends KubernetesObject>(
    kind: Kind<T>,
    obj: T | ObjectKey,
    options?: DeleteOptions,
  ): Promise<void>;
  patch<T extends KubernetesObject>(
    kind: Kind<T>,
    obj: T | ObjectKey,
    patch: Patch,
    options?: WriteOptions,
  ): Promise<T>;
  /** Server-side apply (application/apply-patch+yaml) with a field manager. */
  apply<T extends KubernetesObject>(kind: Kind<T>, obj: T, options: ApplyOptions): Promise<T>;
}

/**
 * Writes to a subresource such as "status" or "scale", filling the object passed in like Writer's.
 * A kind without that subresource fails with MissingSubresourceError (not NotFound), which names the marker to add.
 */
export interface SubResourceClient {
  get<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey): Promise<T>;
  update<T extends KubernetesObject>(kind: Kind<T>, obj: T, options?: WriteOptions): Promise<T>;
  patch<T extends KubernetesObject>(
    kind: Kind<T>,
    obj: T | ObjectKey,
    patch: Patch,
    options?: WriteOptions,
  ): Promise<T>;
}

/** controller-runtime's client.Client: reads from the informer cache by default, writes to the API server. */
export interface Client extends Reader, Writer {
  status(): SubResourceClient;
  subResource(name: string): SubResourceClient;
}
