import type { Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { deepFreeze } from "../cache/informer.js";
import type { IndexFunc } from "../cache/types.js";
import { asReadBy, metadataOnlyWriteError } from "../client/metadata.js";
import type {
  ApplyOptions,
  Client,
  DeleteOptions,
  ListOptions,
  ObjectKey,
  Patch,
  SubResourceClient,
  WriteOptions,
} from "../client/types.js";
import { isObject, writeBack } from "../client/writeback.js";
import type { Converter } from "../conversion/hubspoke.js";
import { ConversionRegistry } from "../conversion/registry.js";
import type { CRDLike } from "./crds.js";
import { patch } from "./patch.js";
import { get, list } from "./reads.js";
import { statusClient } from "./status.js";
import { type FakeKind, FakeStore } from "./store.js";
import { apply, create, remove, update } from "./writes.js";

/** A field index, as registered with the cache's indexField (controller-runtime's WithIndex). */
export interface FakeIndex {
  kind: Kind;
  field: string;
  // biome-ignore lint/suspicious/noExplicitAny: any object type's extractor fits
  extract: IndexFunc<any>;
}

export interface FakeClientOptions {
  /** Objects present at start (apiVersion and kind required; validated like creates). */
  objects?: KubernetesObject[];
  /** Directories or files of CRDs (e.g. config/crd/bases): their kinds are served with schema + CEL validation. */
  crdDirectoryPaths?: string[];
  /** CRDs given as objects. */
  crds?: CRDLike[];
  /** Field indexes for list({ matchingFields }). */
  indexes?: FakeIndex[];
  /**
   * Kinds that are neither built in nor from a CRD, served without validation. A bare Kind has no
   * status subresource (the fake client warns at setup: pass the CRD instead); `{ kind, statusSubresource: true }` gives it one.
   */
  kinds?: Array<Kind | FakeKind>;
  /**
   * Converters of multi-version kinds (the same hubAndSpokes the webhook serves): each object is stored
   * once in the storage version (the CRD's, else the hub) and every version reads and writes through them.
   */
  conversions?: Converter[] | ConversionRegistry;
}

export type { FakeKind } from "./store.js";

/** The fake client: the Client contract plus registration of indexes after construction. */
export interface FakeClient extends Client {
  // biome-ignore lint/suspicious/noExplicitAny: any object type's extractor fits
  indexField(kind: Kind, field: string, extract: IndexFunc<any>): void;
  /** Warnings the API server would have sent (e.g. `unknown field "spec.x"` for pruned fields), oldest first. */
  warnings(): string[];
}

/**
 * A Client over an in-memory store that behaves like the API server where unit tests notice:
 * resourceVersion (stale writes conflict), generation, status subresource, finalizers and
 * deletionTimestamp, field indexes, label selectors, NotFound/AlreadyExists/Conflict/Invalid errors,
 * and, for custom resources, the CRD's pruning, defaulting, OpenAPI and CEL validation.
 */
export function createFakeClient(options: FakeClientOptions = {}): FakeClient {
  const conversions =
    options.conversions instanceof ConversionRegistry
      ? options.conversions
      : new ConversionRegistry(options.conversions ?? []);
  const store = new FakeStore(
    options.kinds ?? [],
    options.crdDirectoryPaths ?? [],
    options.crds ?? [],
    conversions,
  );
  for (const seed of options.objects ?? []) {
    if (!seed.apiVersion || !seed.kind)
      throw new Error(
        `fake client: seed object ${seed.metadata?.name ?? "<unnamed>"} needs apiVersion and kind`,
      );
    create(store, store.findKind(seed.apiVersion, seed.kind), seed, {}, true);
  }
  store.advanceRV();

  const client: FakeClient = {
    // metadataOnly(Kind) reads and writes answer with metadata only, as the real client's do.
    async get<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey): Promise<T> {
      return asReadBy(kind, get(store, kind, key));
    },
    async list<T extends KubernetesObject>(kind: Kind<T>, opts: ListOptions = {}): Promise<T[]> {
      // As the cache's: frozen (the fake's objects are copies either way), so a write to one throws here too.
      const read = list(store, kind, opts).map((o) => asReadBy(kind, o));
      return opts.unsafeDisableDeepCopy ? read.map((o) => deepFreeze(o)) : read;
    },
    async create<T extends KubernetesObject>(kind: Kind<T>, obj: T, opts: WriteOptions = {}): Promise<T> {
      if (kind.metadataOnly) throw metadataOnlyWriteError(kind, "create", obj.metadata?.name);
      return writeBack(obj, create(store, kind, obj, opts));
    },
    async update<T extends KubernetesObject>(kind: Kind<T>, obj: T, opts: WriteOptions = {}): Promise<T> {
      if (kind.metadataOnly) throw metadataOnlyWriteError(kind, "update", obj.metadata?.name);
      return writeBack(obj, update(store, kind, obj, opts));
    },
    async patch<T extends KubernetesObject>(
      kind: Kind<T>,
      obj: T | ObjectKey,
      p: Patch,
      opts: WriteOptions = {},
    ): Promise<T> {
      const answer = asReadBy(kind, patch(store, kind, obj, p, opts));
      return isObject(obj) ? writeBack(obj, answer) : answer;
    },
    async apply<T extends KubernetesObject>(kind: Kind<T>, obj: T, opts: ApplyOptions): Promise<T> {
      return writeBack(obj, asReadBy(kind, apply(store, kind, obj, opts)));
    },
    async delete<T extends KubernetesObject>(
      kind: Kind<T>,
      obj: T | ObjectKey,
      opts: DeleteOptions = {},
    ): Promise<void> {
      remove(store, kind, obj, opts);
    },
    status: () => statusClient(store),
    subResource(name: string): SubResourceClient {
      if (name === "status") return statusClient(store);
      throw new Error(`fake client: subresource "${name}" is not emulated (only "status")`);
    },
    indexField(kind, field, extract) {
      store.addIndex(kind, field, extract);
    },
    warnings() {
      return [...store.warnings];
    },
  };

  for (const ix of options.indexes ?? []) client.indexField(ix.kind, ix.field, ix.extract);
  return client;
}
