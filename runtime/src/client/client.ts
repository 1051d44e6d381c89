/**
 * The client: controller-runtime's client.Client. Reads go to the informer cache when one is given
 * (its first read of a kind starts that kind's informer and waits for it to sync), otherwise
 * straight to the API server; writes always go to the API server. Every object handed back carries
 * apiVersion and kind, including list items (the API server leaves them off items).
 */

import { apiVersionOf, type Kind } from "../api/kind.js";
import type { KubernetesList, KubernetesObject } from "../api/meta.js";
import type { Logger } from "../log/types.js";
import { isNotFound, missingSubresourceError } from "./errors.js";
import type { KubeConfig } from "./kubeconfig.js";
import { acceptFor, asReadBy, metadataOnlyWriteError } from "./metadata.js";
import {
  type ObservedWrite,
  OwnWrites,
  type ResourceVersionWaiter,
  type WriteObservable,
  type WriteObserver,
  WriteObservers,
} from "./own-writes.js";
import { patchContentType } from "./patch.js";
import { queryString, resourcePath } from "./paths.js";
import { RestClient, type RestClientOptions, type RestRequest } from "./rest.js";
import { parseSelector, selectorToString } from "./selector.js";
import type {
  ApplyOptions,
  Client,
  DeleteOptions,
  ListOptions,
  ObjectKey,
  Patch,
  Reader,
  SubResourceClient,
  WriteOptions,
} from "./types.js";
import { isObject, writeBack } from "./writeback.js";

/**
 * What the client reads through instead of the API server: controller-runtime's client.Reader, which
 * the informer cache implements. A reader that can also wait for a resourceVersion (InformerCache can)
 * gets read-your-own-writes.
 */
export type CacheReader = Reader & Partial<ResourceVersionWaiter>;

export interface ClientOptions {
  /** Serve get/list from this informer cache (controller-runtime's default client). */
  cache?: CacheReader;
  /** Kinds always read from the API server even with a cache, e.g. Secrets you do not want to hold (controller-runtime's CacheOptions.DisableFor). */
  uncached?: Kind[];
  logger?: Logger;
  /** Default field manager for create, update and patch (controller-runtime's client.FieldOwner). */
  fieldOwner?: string;
  /** Options for the REST layer (user agent, timeouts); a RestClient to share one connection pool. */
  rest?: RestClientOptions | RestClient;
  /**
   * Read-your-own-writes (on by default with a cache): a cached read of an object this client wrote
   * waits until the cache has reached that write, at most `timeoutMs` (default 3 s), then reads from
   * the API server instead. `false` turns it off (only to show what it prevents).
   */
  readYourOwnWrites?: boolean | { timeoutMs?: number };
}

/** Objects of a subresource other than the parent kind (Scale, Eviction, ...) come back as they are. */
export interface SubResourceClientWithCreate extends SubResourceClient {
  /** POST to the subresource, e.g. `subResource("eviction").create(Pod, pod, eviction)`. */
  create<R extends KubernetesObject>(
    kind: Kind,
    obj: KubernetesObject | ObjectKey,
    body: R,
    options?: WriteOptions,
  ): Promise<R>;
}

/** The client createClient returns: a Client whose subresource clients can also POST (eviction, token). */
export interface APIClient extends Client, WriteObservable, WriteGuardable {
  status(): SubResourceClientWithCreate;
  subResource(name: string): SubResourceClientWithCreate;
}

/** A client whose writes can be made to pass a synchronous check just before they are sent. */
export interface WriteGuardable {
  /**
   * The same client, except that each write (every attempt of it) first calls `guard` once the
   * connection is ready, right before the first byte goes out; a throw fails the write unsent.
   */
  withWriteGuard(guard: () => void): APIClient;
}

export function isWriteGuardable(client: object): client is WriteGuardable {
  return typeof (client as Partial<WriteGuardable>).withWriteGuard === "function";
}

export function createClient(kubeConfig: KubeConfig, options: ClientOptions = {}): APIClient {
  return new KubeClient(restFor(kubeConfig, options), options);
}

/** Uncached reads straight from the API server (the manager's getAPIReader()). */
export function createAPIReader(kubeConfig: KubeConfig, options: Omit<ClientOptions, "cache"> = {}): Reader {
  return new KubeClient(restFor(kubeConfig, options), { ...options, cache: undefined });
}

function restFor(kubeConfig: KubeConfig, options: ClientOptions): RestClient {
  if (options.rest instanceof RestClient) return options.rest;
  const logger = options.logger;
  return new RestClient(kubeConfig, {
    onWarning: logger ? (warning) => logger.warn({ warning }, "API server warning") : undefined,
    ...options.rest,
  });
}

/** Sets apiVersion and kind from the descriptor when the object lacks them. */
export function withTypeMeta<T extends KubernetesObject>(kind: Kind, obj: T): T {
  if (obj.apiVersion && obj.kind) return obj;
  return { ...obj, apiVersion: obj.apiVersion || apiVersionOf(kind), kind: obj.kind || kind.kind };
}

/** A read object as its kind: with apiVersion/kind, and only metadata for a metadataOnly(kind) read. */
function typedAs<T extends KubernetesObject>(kind: Kind<T>, obj: T): T {
  return kind.metadataOnly ? asReadBy(kind, obj) : withTypeMeta(kind, obj);
}

/** namespace/name of an object or key, checked against the kind's scope. */
export function objectKey(kind: Kind, obj: KubernetesObject | ObjectKey): ObjectKey {
  const key: ObjectKey =
    "name" in obj && typeof obj.name === "string"
      ? (obj as ObjectKey)
      : {
          namespace: (obj as KubernetesObject).metadata?.namespace,
          name: (obj as KubernetesObject).metadata?.name ?? "",
        };
  if (!key.name) throw new Error(`${kind.kind} object has no metadata.name`);
  return kind.namespaced ? key : { name: key.name };
}

/** The `labelSelector` and `fieldSelector` query values for a direct list. */
export function listQuery(options: ListOptions): { labelSelector?: string; fieldSelector?: string } {
  const labelSelector =
    options.labelSelector === undefined ? undefined : selectorToString(parseSelector(options.labelSelector));
  const fields = [
    ...(options.fieldSelector ? [options.fieldSelector] : []),
    ...Object.entries(options.matchingFields ?? {}).map(([k, v]) => `${k}=${v}`),
  ];
  return { labelSelector: labelSelector || undefined, fieldSelector: fields.join(",") || undefined };
}

const LIST_PAGE_SIZE = 500;

const DEFAULT_OWN_WRITE_WAIT_MS = 3_000;

class KubeClient implements APIClient {
  /** Set when reads go through a cache that can wait for a resourceVersion (see own-writes.ts). */
  private readonly ownWrites: OwnWrites | undefined;
  private readonly ownWriteWaitMs: number;
  private readonly observers = new WriteObservers();
  /** Checked right before each write's first byte is sent (RestRequest.beforeSend). */
  private writeGuard: (() => void) | undefined;

  constructor(
    private readonly rest: RestClient,
    private readonly options: ClientOptions,
  ) {
    const ryow = options.readYourOwnWrites ?? true;
    this.ownWrites = ryow !== false && options.cache && canWait(options.cache) ? new OwnWrites() : undefined;
    this.ownWriteWaitMs =
      (typeof ryow === "object" ? ryow.timeoutMs : undefined) ?? DEFAULT_OWN_WRITE_WAIT_MS;
  }

  async get<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey): Promise<T> {
    const cache = this.cacheFor(kind);
    if (!cache) return this.getDirect(kind, key);
    const k = objectKey(kind, key);
    const written = this.ownWrites?.pending(kind, k);
    if (written !== undefined) {
      const waiter = cache as Reader & ResourceVersionWaiter;
      const reached = await this.ownWrites?.wait(kind, k, written, () =>
        waiter.waitForResourceVersion(kind, k, written, this.ownWriteWaitMs),
      );
      // The cache is behind our own write: the API server is the only copy at least that new.
      if (!reached) return this.getDirect(kind, k);
    }
    return cache.get(kind, key);
  }

  async list<T extends KubernetesObject>(kind: Kind<T>, options: ListOptions = {}): Promise<T[]> {
    const cache = this.cacheFor(kind);
    if (cache) {
      // A list must not show an object older than our own write of it either. Lagging past the bound,
      // the cache's copy is served (a list cannot be patched up object by object without losing its
      // selector and index semantics); reconcilers that compare against their writes read by key.
      await this.ownWrites?.beforeList(
        kind,
        options.namespace,
        cache as Reader & ResourceVersionWaiter,
        this.ownWriteWaitMs,
      );
      return cache.list(kind, options);
    }
    const { labelSelector, fieldSelector } = listQuery(options);
    const items: T[] = [];
    let cont = options.continue;
    // Without a limit, page through everything, so huge collections never arrive as one response.
    for (;;) {
      const limit =
        options.limit === undefined ? LIST_PAGE_SIZE : Math.min(options.limit - items.length, LIST_PAGE_SIZE);
      const path =
        resourcePath(kind, { namespace: options.namespace }) +
        queryString({ labelSelector, fieldSelector, limit, continue: cont });
      const list = await this.rest.request<KubernetesList<T>>({
        method: "GET",
        path,
        accept: acceptFor(kind, "list"),
      });
      for (const item of list.items ?? []) items.push(typedAs(kind, item));
      cont = list.metadata?.continue;
      if (!cont || (options.limit !== undefined && items.length >= options.limit)) break;
    }
    return items;
  }

  async create<T extends KubernetesObject>(kind: Kind<T>, obj: T, options: WriteOptions = {}): Promise<T> {
    const path = resourcePath(kind, { namespace: kind.namespaced ? requireNamespace(kind, obj) : undefined });
    const key = obj.metadata?.name ? objectKey(kind, obj) : undefined;
    const answer = await this.observed(
      options,
      { kind, key, subresource: undefined, verb: "create", body: obj },
      () => this.write(kind, "POST", path + this.writeQuery(options), withTypeMeta(kind, obj)),
    );
    return writeBack(obj, this.wrote(kind, answer, options.dryRun));
  }

  async update<T extends KubernetesObject>(kind: Kind<T>, obj: T, options: WriteOptions = {}): Promise<T> {
    const key = objectKey(kind, obj);
    const path = resourcePath(kind, key);
    const answer = await this.observed(
      options,
      { kind, key, subresource: undefined, verb: "update", body: obj },
      () => this.write(kind, "PUT", path + this.writeQuery(options), withTypeMeta(kind, obj)),
    );
    return writeBack(obj, this.wrote(kind, answer, options.dryRun));
  }

  async delete<T extends KubernetesObject>(
    kind: Kind<T>,
    obj: T | ObjectKey,
    options: DeleteOptions = {},
  ): Promise<void> {
    const key = objectKey(kind, obj);
    const path = resourcePath(kind, key);
    const body: Record<string, unknown> = { apiVersion: "v1", kind: "DeleteOptions" };
    if (options.propagationPolicy) body.propagationPolicy = options.propagationPolicy;
    if (options.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = options.gracePeriodSeconds;
    if (options.preconditions) body.preconditions = options.preconditions;
    if (options.dryRun) body.dryRun = ["All"];
    const res = await this.observed(
      options,
      { kind, key, subresource: undefined, verb: "delete", body },
      () => this.writeRequest<KubernetesObject | undefined>({ method: "DELETE", path, body }),
    );
    // An object with finalizers comes back with its deletionTimestamp: a write like any other.
    if (res?.kind === kind.kind) this.wrote(kind, res, options.dryRun);
  }

  async patch<T extends KubernetesObject>(
    kind: Kind<T>,
    obj: T | ObjectKey,
    patch: Patch,
    options: WriteOptions = {},
  ): Promise<T> {
    return this.patchAt(kind, obj, patch, options, undefined);
  }

  async apply<T extends KubernetesObject>(kind: Kind<T>, obj: T, options: ApplyOptions): Promise<T> {
    return writeBack(obj, await this.applyAt(kind, obj, options, undefined));
  }

  observeWritesTo(kind: Kind, key: ObjectKey, observer: WriteObserver): () => void {
    return this.observers.observe(kind, key, observer);
  }

  withWriteGuard(guard: () => void): APIClient {
    // A view of this client: the same connections, cache, own-write records and observers (all read
    // through the prototype); only the view's writes carry the guard.
    const view = Object.create(this) as KubeClient;
    view.writeGuard = guard;
    return view;
  }

  status(): SubResourceClientWithCreate {
    return this.subResource("status");
  }

  subResource(name: string): SubResourceClientWithCreate {
    return {
      get: <T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey) => this.getDirect(kind, key, name),
      update: async <T extends KubernetesObject>(kind: Kind<T>, obj: T, options: WriteOptions = {}) => {
        const key = objectKey(kind, obj);
        const path = resourcePath(kind, { ...key, subresource: name });
        const answer = await this.observed(
          options,
          { kind, key, subresource: name, verb: "update", body: obj },
          () =>
            this.explainMissingSubresource(kind, obj, name, () =>
              this.write(kind, "PUT", path + this.writeQuery(options), withTypeMeta(kind, obj)),
            ),
        );
        return writeBack(obj, this.wrote(kind, answer, options.dryRun));
      },
      patch: <T extends KubernetesObject>(
        kind: Kind<T>,
        obj: T | ObjectKey,
        patch: Patch,
        options: WriteOptions = {},
      ) => this.patchAt(kind, obj, patch, options, name),
      create: async <R extends KubernetesObject>(
        kind: Kind,
        obj: KubernetesObject | ObjectKey,
        body: R,
        options: WriteOptions = {},
      ) => {
        const path = resourcePath(kind, { ...objectKey(kind, obj), subresource: name });
        const answer = await this.explainMissingSubresource(kind, obj, name, () =>
          this.writeRequest<R>({ method: "POST", path: path + this.writeQuery(options), body }),
        );
        return writeBack(body, answer);
      },
    };
  }

  /**
   * The API server answers 404 for a subresource the kind does not have, exactly as for a missing
   * object. On a 404, look the object up: if it exists, say which subresource is missing and how to add it.
   */
  private async explainMissingSubresource<R>(
    kind: Kind,
    obj: KubernetesObject | ObjectKey,
    subresource: string,
    send: () => Promise<R>,
  ): Promise<R> {
    try {
      return await send();
    } catch (err) {
      if (!isNotFound(err)) throw err;
      const key = objectKey(kind, obj);
      const exists = await this.getDirect(kind, key).then(
        () => true,
        () => false,
      );
      if (exists) throw missingSubresourceError(kind, key.name, subresource, err);
      throw err;
    }
  }

  /**
   * Sends a write, telling the observer of the reconcile it runs in (see own-writes.ts) before and
   * after. Dry runs change nothing, so nobody is told of them.
   */
  private async observed<R>(
    options: { dryRun?: boolean },
    write: Omit<ObservedWrite, "resourceVersion">,
    send: () => Promise<R>,
  ): Promise<R> {
    const observers = options.dryRun ? [] : this.observers.of(write.kind, write.key, write.body);
    if (observers.length === 0) return send();
    const body = write.body as KubernetesObject | undefined;
    const full = { ...write, resourceVersion: body?.metadata?.resourceVersion };
    const done = observers.map((o) => o.willWrite(full));
    let answer: R | undefined;
    try {
      answer = await send();
      return answer;
    } finally {
      const obj = answer as KubernetesObject | undefined;
      for (const d of done) d(obj && typeof obj === "object" && obj.metadata ? obj : undefined);
    }
  }

  /** Records what a successful write returned, so later cached reads wait for it. */
  private wrote<T extends KubernetesObject>(kind: Kind, written: T, dryRun: boolean | undefined): T {
    if (this.ownWrites && !dryRun && written?.metadata?.name) {
      this.ownWrites.record(
        kind,
        { namespace: written.metadata.namespace, name: written.metadata.name },
        written.metadata.resourceVersion,
      );
    }
    return written;
  }

  private cacheFor(kind: Kind): CacheReader | undefined {
    const { cache, uncached } = this.options;
    if (!cache) return undefined;
    const same = (k: Kind) => k.group === kind.group && k.version === kind.version && k.kind === kind.kind;
    return uncached?.some(same) ? undefined : cache;
  }

  private async getDirect<T extends KubernetesObject>(
    kind: Kind<T>,
    key: ObjectKey,
    subresource?: string,
  ): Promise<T> {
    const path = resourcePath(kind, { ...objectKey(kind, key), subresource });
    return typedAs(kind, await this.rest.request<T>({ method: "GET", path, accept: acceptFor(kind, "get") }));
  }

  private async patchAt<T extends KubernetesObject>(
    kind: Kind<T>,
    obj: T | ObjectKey,
    patch: Patch,
    options: WriteOptions,
    subresource: string | undefined,
  ): Promise<T> {
    const key = objectKey(kind, obj);
    const path = resourcePath(kind, { ...key, subresource });
    const send = () =>
      this.writeRequest<T>({
        method: "PATCH",
        path: path + this.writeQuery(options),
        body: patch.data,
        contentType: patchContentType(patch.type),
        accept: acceptFor(kind, "get"),
      });
    const res = await this.observed(
      options,
      { kind, key, subresource, verb: "patch", body: patch.data },
      () => (subresource ? this.explainMissingSubresource(kind, obj, subresource, send) : send()),
    );
    const answer = this.wrote(kind, typedAs(kind, res), options.dryRun);
    return isObject(obj) ? writeBack(obj, answer) : answer;
  }

  private async applyAt<T extends KubernetesObject>(
    kind: Kind<T>,
    obj: T,
    options: ApplyOptions,
    subresource: string | undefined,
  ): Promise<T> {
    if (!options?.fieldManager) {
      throw new Error(
        `server-side apply of ${kind.kind} needs options.fieldManager (e.g. your controller's name)`,
      );
    }
    const key = objectKey(kind, obj);
    const path = resourcePath(kind, { ...key, subresource });
    // The API server refuses an apply body that carries managedFields; objects read back carry them.
    const body = withTypeMeta(kind, obj);
    const metadata = body.metadata ? { ...body.metadata } : undefined;
    if (metadata) delete metadata.managedFields;
    const res = await this.observed(options, { kind, key, subresource, verb: "apply", body: obj }, () =>
      this.writeRequest<T>({
        method: "PATCH",
        path:
          path +
          queryString({
            fieldManager: options.fieldManager,
            force: options.force ? "true" : undefined,
            dryRun: options.dryRun ? "All" : undefined,
          }),
        // JSON is valid YAML, so the apply-patch+yaml content type takes it as is.
        body: { ...body, metadata },
        contentType: patchContentType("apply"),
        accept: acceptFor(kind, "get"),
      }),
    );
    return this.wrote(kind, typedAs(kind, res), options.dryRun);
  }

  private async write<T extends KubernetesObject>(
    kind: Kind<T>,
    method: "POST" | "PUT",
    path: string,
    body: T,
  ): Promise<T> {
    // A PartialObjectMetadata has no spec or data: creating or replacing with it would wipe them.
    if (kind.metadataOnly)
      throw metadataOnlyWriteError(kind, method === "POST" ? "create" : "update", body.metadata?.name);
    return withTypeMeta(kind, await this.writeRequest<T>({ method, path, body }));
  }

  /** Every write goes out through here, carrying the write guard of this view (see withWriteGuard). */
  private writeRequest<T>(req: RestRequest): Promise<T> {
    return this.rest.request<T>(this.writeGuard ? { ...req, beforeSend: this.writeGuard } : req);
  }

  private writeQuery(options: WriteOptions): string {
    return queryString({
      dryRun: options.dryRun ? "All" : undefined,
      fieldManager: options.fieldManager ?? this.options.fieldOwner,
      fieldValidation: options.fieldValidation,
    });
  }
}

function canWait(cache: CacheReader): cache is Reader & ResourceVersionWaiter {
  return typeof cache.waitForResourceVersion === "function";
}

function requireNamespace(kind: Kind, obj: KubernetesObject): string {
  const ns = obj.metadata?.namespace;
  if (!ns) {
    throw new Error(
      `${kind.kind} "${obj.metadata?.name ?? obj.metadata?.generateName ?? ""}" is namespaced: set metadata.namespace`,
    );
  }
  return ns;
}
