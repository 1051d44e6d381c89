import { randomBytes, randomUUID } from "node:crypto";
import { builtinKinds } from "../api/kinds.js";
import type { KubernetesObject, ObjectMeta } from "../api/meta.js";
import type { IndexFunc } from "../cache/types.js";
import {
  AlreadyExistsError,
  ApiError,
  ConflictError,
  InvalidError,
  NotFoundError,
} from "../client/errors.js";
import { matchesSelector, parseFieldSelector, parseSelector } from "../client/selector.js";
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
import { jsonClone, jsonEqual } from "../controllerutil/json.js";
import { apiVersionOf, type Kind } from "../kinds.js";
import { celErrors } from "./cel.js";
import { type CRDLike, type CRDType, type CRDVersion, loadCRD, readCRDFiles } from "./crds.js";
import { blocksCel, CEL_NOT_CHECKED, type FieldError, invalidError } from "./fielderrors.js";
import { labelErrors, nameErrors } from "./metadata.js";
import { applyJsonPatch, applyMergePatch, PatchError } from "./patch.js";
import { applyDefaults, prune, type StructuralSchema } from "./schema.js";

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
  /** Descriptors of kinds that are neither built in nor from a CRD (served without validation). */
  kinds?: Kind[];
}

/** The fake client: the Client contract plus registration of indexes after construction. */
export interface FakeClient extends Client {
  // biome-ignore lint/suspicious/noExplicitAny: any object type's extractor fits
  indexField(kind: Kind, field: string, extract: IndexFunc<any>): void;
  /** Warnings the API server would have sent (e.g. `unknown field "spec.x"` for pruned fields), oldest first. */
  warnings(): string[];
}

// Built-in kinds with a status subresource (controller-runtime's fake has a longer list; these are the ones we describe).
const BUILTIN_STATUS = new Set([
  "/Pod",
  "/Service",
  "/Namespace",
  "/ResourceQuota",
  "apps/Deployment",
  "apps/StatefulSet",
  "apps/DaemonSet",
  "batch/Job",
  "apiextensions.k8s.io/CustomResourceDefinition",
]);

const typeKey = (group: string, kind: string) => `${group}/${kind}`;
const objKey = (namespace: string | undefined, name: string) => `${namespace ?? ""}/${name}`;
const qualifiedResource = (kind: Kind) => (kind.group ? `${kind.plural}.${kind.group}` : kind.plural);
const groupOf = (apiVersion: string) =>
  apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";
const now = () => new Date().toISOString().replace(/\.\d+Z$/, "Z");

function status(code: number, reason: string, message: string, details?: Record<string, unknown>) {
  return { apiVersion: "v1", kind: "Status", status: "Failure" as const, code, reason, message, details };
}

function notFound(kind: Kind, name: string): NotFoundError {
  return new NotFoundError(
    status(404, "NotFound", `${qualifiedResource(kind)} "${name}" not found`, {
      name,
      group: kind.group,
      kind: kind.plural,
    }),
    404,
  );
}

function conflict(kind: Kind, name: string, why: string): ConflictError {
  return new ConflictError(
    status(409, "Conflict", `Operation cannot be fulfilled on ${qualifiedResource(kind)} "${name}": ${why}`, {
      name,
      group: kind.group,
      kind: kind.plural,
    }),
    409,
  );
}

function badRequest(message: string): ApiError {
  return new ApiError(status(400, "BadRequest", message), 400);
}

const MODIFIED =
  "the object has been modified; please apply your changes to the latest version and try again";

interface TypeInfo {
  kind: Kind;
  crd?: CRDVersion;
  statusSubresource: boolean;
}

/**
 * A Client over an in-memory store that behaves like the API server where unit tests notice:
 * resourceVersion (stale writes conflict), generation, status subresource, finalizers and
 * deletionTimestamp, field indexes, label selectors, NotFound/AlreadyExists/Conflict/Invalid errors,
 * and, for custom resources, the CRD's pruning, defaulting, OpenAPI and CEL validation.
 */
export function createFakeClient(options: FakeClientOptions = {}): FakeClient {
  const crdTypes = new Map<string, CRDType>();
  const kinds = new Map<string, Kind>();
  const store = new Map<string, Map<string, KubernetesObject>>();
  const indexes = new Map<string, Map<string, IndexFunc<KubernetesObject>>>();
  const warnings: string[] = [];
  let resourceVersion = 0;

  for (const k of [...builtinKinds, ...(options.kinds ?? [])]) kinds.set(typeKey(k.group, k.kind), k);
  const crdSources = [
    ...readCRDFiles(options.crdDirectoryPaths ?? []),
    ...(options.crds ?? []).map((crd, i) => ({ crd, where: `crds[${i}]` })),
  ];
  for (const { crd, where } of crdSources) {
    const type = loadCRD(crd, where);
    crdTypes.set(typeKey(type.group, type.kind), type);
    const first = type.versions.values().next().value as CRDVersion | undefined;
    if (first) kinds.set(typeKey(type.group, type.kind), first.kind);
  }

  function info(kind: Kind): TypeInfo {
    const key = typeKey(kind.group, kind.kind);
    const crd = crdTypes.get(key);
    if (crd) {
      const version = crd.versions.get(kind.version);
      if (!version) {
        throw new NotFoundError(
          status(
            404,
            "NotFound",
            `the server could not find the requested resource (${kind.kind}.${kind.version}.${kind.group} is not served by CRD ${crd.name})`,
          ),
          404,
        );
      }
      return { kind, crd: version, statusSubresource: version.statusSubresource };
    }
    if (!kinds.has(key)) kinds.set(key, kind);
    return { kind, statusSubresource: BUILTIN_STATUS.has(key) };
  }

  function bucket(kind: Kind): Map<string, KubernetesObject> {
    const key = typeKey(kind.group, kind.kind);
    let b = store.get(key);
    if (!b) {
      b = new Map();
      store.set(key, b);
    }
    return b;
  }

  function out<T extends KubernetesObject>(kind: Kind, obj: KubernetesObject): T {
    return { ...jsonClone(obj), apiVersion: apiVersionOf(kind), kind: kind.kind } as T;
  }

  function keyFor(kind: Kind, obj: KubernetesObject | ObjectKey): { namespace?: string; name: string } {
    const isKey = "name" in obj && typeof (obj as ObjectKey).name === "string" && !("metadata" in obj);
    const name = isKey ? (obj as ObjectKey).name : ((obj as KubernetesObject).metadata?.name ?? "");
    const namespace = isKey ? (obj as ObjectKey).namespace : (obj as KubernetesObject).metadata?.namespace;
    if (!name) throw badRequest(`resource name may not be empty (${kind.kind})`);
    if (kind.namespaced && !namespace)
      throw badRequest(
        `an empty namespace may not be set when a resource name is provided (${kind.kind} "${name}")`,
      );
    return kind.namespaced ? { namespace, name } : { name };
  }

  /** Pruning, defaulting, then OpenAPI + CEL validation of a custom resource; metadata.name checks for all. */
  function admit(
    t: TypeInfo,
    obj: KubernetesObject,
    old: KubernetesObject | undefined,
    subresource?: "status",
  ): void {
    const errors: FieldError[] = [];
    const name = obj.metadata?.name ?? "";
    if (!old) errors.push(...nameErrors(name));
    errors.push(...labelErrors(obj.metadata?.labels));
    const schema = t.crd?.schema;
    if (schema && t.crd?.validator) {
      for (const path of prune(obj, schema)) warnings.push(`unknown field "${path}"`);
      applyDefaults(obj, schema);
      const statusOnly = subresource === "status" && t.crd.statusValidator !== undefined;
      const record = obj as Record<string, unknown>;
      const schemaErrors = statusOnly
        ? record.status === undefined
          ? []
          : (t.crd.statusValidator?.errors(record.status) ?? [])
        : t.crd.validator.errors(obj);
      errors.push(...schemaErrors);
      // Type, enum, required, length and count errors keep CEL from running, as in apiextensions.
      if (t.crd.hasRules) errors.push(...ruleErrors(schema, schemaErrors, record, old, statusOnly));
    }
    if (errors.length > 0) throw invalidError(t.kind, name, errors);
  }

  /**
   * CEL rules, unless the schema found errors of the kinds that keep apiextensions from running
   * them (then one error says so). Status writes check the rules under .status only.
   */
  function ruleErrors(
    schema: StructuralSchema,
    schemaErrors: FieldError[],
    obj: Record<string, unknown>,
    old: KubernetesObject | undefined,
    statusOnly: boolean,
  ): FieldError[] {
    if (blocksCel(schemaErrors)) return [CEL_NOT_CHECKED];
    const statusSchema = schema.properties?.status;
    if (statusOnly && statusSchema) {
      return celErrors(
        obj.status,
        (old as Record<string, unknown> | undefined)?.status,
        statusSchema,
        "status",
      );
    }
    return celErrors(celRoot(obj), old ? celRoot(old) : undefined, schema);
  }

  /** What root-level CEL rules see: the object with only metadata.name and metadata.generateName. */
  function celRoot(obj: KubernetesObject): Record<string, unknown> {
    const { metadata, ...rest } = obj as Record<string, unknown> & { metadata?: ObjectMeta };
    const meta: Record<string, string> = {};
    if (metadata?.name) meta.name = metadata.name;
    if (metadata?.generateName) meta.generateName = metadata.generateName;
    return { ...rest, metadata: meta };
  }

  function nextRV(): string {
    resourceVersion += 1;
    return String(resourceVersion);
  }

  function generationChanged(t: TypeInfo, a: KubernetesObject, b: KubernetesObject): boolean {
    const pick = (o: KubernetesObject) => {
      const { metadata: _m, status: s, ...rest } = o as Record<string, unknown>;
      if (!t.crd) return rest.spec;
      return t.statusSubresource ? rest : { ...rest, status: s };
    };
    return !jsonEqual(pick(a), pick(b));
  }

  function doCreate<T extends KubernetesObject>(
    kind: Kind<T>,
    input: T,
    opts: { dryRun?: boolean } = {},
    seeding = false,
  ): T {
    const t = info(kind);
    const obj = jsonClone(input) as KubernetesObject;
    obj.apiVersion = apiVersionOf(kind);
    obj.kind = kind.kind;
    obj.metadata ??= {};
    const meta: ObjectMeta = obj.metadata;
    if (meta.resourceVersion && !seeding)
      throw badRequest("resourceVersion can not be set for Create requests");
    if (!meta.name && meta.generateName) {
      const b = bucket(kind);
      do meta.name = `${meta.generateName.slice(0, 58)}${randomBytes(4).toString("hex").slice(0, 5)}`;
      while (b.has(objKey(meta.namespace, meta.name)));
    }
    if (!meta.name) {
      throw invalidError(kind, "", [
        { type: "Required", field: "metadata.name", detail: "name or generateName is required" },
      ]);
    }
    if (!kind.namespaced) delete meta.namespace;
    else if (!meta.namespace)
      throw badRequest(
        `the namespace of the provided object does not match the namespace sent on the request: ${kind.kind} "${meta.name}" has no metadata.namespace`,
      );
    const key = objKey(meta.namespace, meta.name);
    if (bucket(kind).has(key)) {
      throw new AlreadyExistsError(
        status(409, "AlreadyExists", `${qualifiedResource(kind)} "${meta.name}" already exists`, {
          name: meta.name,
          group: kind.group,
          kind: kind.plural,
        }),
        409,
      );
    }
    if (t.statusSubresource && !seeding) delete (obj as Record<string, unknown>).status;
    if (meta.deletionTimestamp && !seeding) delete meta.deletionTimestamp;
    if (seeding && meta.deletionTimestamp && !meta.finalizers?.length) {
      throw new Error(
        `fake client: seed ${kind.kind} "${meta.name}" has a deletionTimestamp but no finalizers; the API server would have deleted it`,
      );
    }
    admit(t, obj, undefined);
    meta.uid ??= randomUUID();
    meta.creationTimestamp ??= now();
    if (t.crd || (obj as Record<string, unknown>).spec !== undefined) meta.generation ??= 1;
    meta.resourceVersion = seeding && meta.resourceVersion ? meta.resourceVersion : nextRV();
    if (!opts.dryRun) bucket(kind).set(key, obj);
    return out<T>(kind, obj);
  }

  for (const seed of options.objects ?? []) {
    if (!seed.apiVersion || !seed.kind)
      throw new Error(
        `fake client: seed object ${seed.metadata?.name ?? "<unnamed>"} needs apiVersion and kind`,
      );
    const kind = findKind(seed.apiVersion, seed.kind);
    doCreate(kind, seed, {}, true);
  }
  const maxSeedRV = Math.max(
    0,
    ...[...store.values()].flatMap((b) =>
      [...b.values()].map((o) => Number(o.metadata?.resourceVersion) || 0),
    ),
  );
  resourceVersion = Math.max(resourceVersion, maxSeedRV);

  function findKind(apiVersion: string, kindName: string): Kind {
    const group = groupOf(apiVersion);
    const version = apiVersion.slice(apiVersion.indexOf("/") + 1);
    const crd = crdTypes.get(typeKey(group, kindName));
    const fromCrd = crd?.versions.get(version)?.kind;
    if (fromCrd) return fromCrd;
    const k = kinds.get(typeKey(group, kindName));
    if (!k)
      throw new Error(
        `fake client: unknown kind ${apiVersion} ${kindName}: pass its CRD (crds/crdDirectoryPaths) or its Kind (kinds)`,
      );
    return k.version === version ? k : { ...k, version };
  }

  /** The shared tail of update, patch and status writes: checks, bookkeeping, finalizer deletion, store. */
  function write<T extends KubernetesObject>(
    kind: Kind<T>,
    existing: KubernetesObject,
    next: KubernetesObject,
    opts: { dryRun?: boolean; requireRV: boolean; subresource?: "status" },
  ): T {
    const t = info(kind);
    const em = existing.metadata ?? {};
    next.metadata ??= {};
    const nm: ObjectMeta = next.metadata;
    const name = em.name ?? "";
    if (nm.resourceVersion) {
      if (nm.resourceVersion !== em.resourceVersion) throw conflict(kind, name, MODIFIED);
    } else if (opts.requireRV && t.crd) {
      throw invalidError(
        kind,
        name,
        [
          {
            type: "Invalid",
            field: "metadata.resourceVersion",
            value: 0,
            detail: "must be specified for an update",
          },
        ],
        qualifiedResource(kind),
      );
    }
    if (nm.uid && nm.uid !== em.uid) {
      throw conflict(
        kind,
        name,
        `Precondition failed: UID in precondition: ${nm.uid}, UID in object meta: ${em.uid}`,
      );
    }
    next.apiVersion = apiVersionOf(kind);
    next.kind = kind.kind;
    // Server-owned metadata cannot be changed by a write.
    nm.name = em.name;
    if (em.namespace) nm.namespace = em.namespace;
    else delete nm.namespace;
    nm.uid = em.uid;
    nm.creationTimestamp = em.creationTimestamp;
    if (em.generation !== undefined) nm.generation = em.generation;
    if (em.deletionTimestamp) nm.deletionTimestamp = em.deletionTimestamp;
    else delete nm.deletionTimestamp;
    nm.resourceVersion = em.resourceVersion;
    if (em.deletionTimestamp) {
      const added = (nm.finalizers ?? []).filter((f) => !(em.finalizers ?? []).includes(f));
      if (added.length > 0) {
        throw invalidError(kind, name, [
          {
            type: "Forbidden",
            field: "metadata.finalizers",
            detail: `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(", ")}}`,
          },
        ]);
      }
    }
    admit(t, next, existing, opts.subresource);
    if (jsonEqual(next, existing)) return out<T>(kind, existing); // no-op writes keep the resourceVersion
    if (em.generation !== undefined && generationChanged(t, existing, next))
      nm.generation = em.generation + 1;
    nm.resourceVersion = nextRV();
    if (!opts.dryRun) {
      const key = objKey(nm.namespace, nm.name ?? "");
      if (nm.deletionTimestamp && !(nm.finalizers ?? []).length) bucket(kind).delete(key);
      else bucket(kind).set(key, next);
    }
    return out<T>(kind, next);
  }

  function existingOf(kind: Kind, obj: KubernetesObject | ObjectKey): KubernetesObject {
    const key = keyFor(kind, obj);
    const existing = bucket(kind).get(objKey(key.namespace, key.name));
    if (!existing) throw notFound(kind, key.name);
    return existing;
  }

  function patched(kind: Kind, existing: KubernetesObject, patch: Patch): KubernetesObject {
    try {
      switch (patch.type) {
        case "merge":
        case "strategic": // strategic merge is approximated by a JSON merge patch (lists are replaced)
          return applyMergePatch(existing, patch.data) as KubernetesObject;
        case "json":
          return applyJsonPatch(existing, patch.data) as KubernetesObject;
      }
    } catch (err) {
      if (err instanceof PatchError) {
        throw new InvalidError(
          status(422, "Invalid", `${kind.kind} "${existing.metadata?.name}": ${err.message}`),
          422,
        );
      }
      throw err;
    }
    throw badRequest(`unknown patch type ${(patch as { type: string }).type}`);
  }

  /** For the main resource of a kind with a status subresource, status is not writable. */
  function keepStatus(t: TypeInfo, existing: KubernetesObject, next: KubernetesObject): KubernetesObject {
    if (!t.statusSubresource) return next;
    const n = next as Record<string, unknown>;
    const e = existing as Record<string, unknown>;
    if (e.status === undefined) delete n.status;
    else n.status = jsonClone(e.status);
    return next;
  }

  /** A status write changes status only. */
  function onlyStatus(existing: KubernetesObject, next: KubernetesObject): KubernetesObject {
    const result = jsonClone(existing) as Record<string, unknown>;
    const s = (next as Record<string, unknown>).status;
    if (s === undefined) delete result.status;
    else result.status = jsonClone(s);
    (result.metadata as ObjectMeta).resourceVersion = next.metadata?.resourceVersion;
    return result as KubernetesObject;
  }

  function indexValues(kind: Kind, field: string, obj: KubernetesObject): string[] {
    if (field === "metadata.name") return [obj.metadata?.name ?? ""];
    if (field === "metadata.namespace") return [obj.metadata?.namespace ?? ""];
    const fn = indexes.get(typeKey(kind.group, kind.kind))?.get(field);
    if (!fn) {
      throw new Error(
        `List on ${apiVersionOf(kind)} ${kind.kind} specifies selector on field ${field}, but no index with name ${field} has been registered for it (register it with indexes or indexField)`,
      );
    }
    return fn(obj);
  }

  function statusClient(): SubResourceClient {
    const guard = (kind: Kind, name: string) => {
      if (!info(kind).statusSubresource) throw notFound(kind, name);
    };
    return {
      async get<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey): Promise<T> {
        return out<T>(kind, existingOf(kind, key));
      },
      async update<T extends KubernetesObject>(kind: Kind<T>, obj: T, opts: WriteOptions = {}): Promise<T> {
        const existing = existingOf(kind, obj);
        guard(kind, existing.metadata?.name ?? "");
        return write(kind, existing, onlyStatus(existing, obj), {
          dryRun: opts.dryRun,
          requireRV: false,
          subresource: "status",
        });
      },
      async patch<T extends KubernetesObject>(
        kind: Kind<T>,
        obj: T | ObjectKey,
        patch: Patch,
        opts: WriteOptions = {},
      ): Promise<T> {
        const existing = existingOf(kind, obj);
        guard(kind, existing.metadata?.name ?? "");
        const next = patched(kind, existing, patch);
        return write(kind, existing, onlyStatus(existing, next), {
          dryRun: opts.dryRun,
          requireRV: false,
          subresource: "status",
        });
      },
    };
  }

  const client: FakeClient = {
    async get<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey): Promise<T> {
      info(kind);
      return out<T>(kind, existingOf(kind, key));
    },

    async list<T extends KubernetesObject>(kind: Kind<T>, opts: ListOptions = {}): Promise<T[]> {
      info(kind);
      const selector = parseSelector(opts.labelSelector);
      const fields = {
        ...(opts.fieldSelector ? parseFieldSelector(opts.fieldSelector) : {}),
        ...(opts.matchingFields ?? {}),
      };
      let items = [...bucket(kind).values()]
        .filter((o) => !opts.namespace || !kind.namespaced || o.metadata?.namespace === opts.namespace)
        .filter((o) => matchesSelector(selector, o.metadata?.labels))
        .filter((o) => Object.entries(fields).every(([f, v]) => indexValues(kind, f, o).includes(v)))
        .sort((a, b) =>
          objKey(a.metadata?.namespace, a.metadata?.name ?? "").localeCompare(
            objKey(b.metadata?.namespace, b.metadata?.name ?? ""),
          ),
        );
      const start = opts.continue ? Number(opts.continue) : 0;
      items = items.slice(start, opts.limit ? start + opts.limit : undefined);
      return items.map((o) => out<T>(kind, o));
    },

    async create<T extends KubernetesObject>(kind: Kind<T>, obj: T, opts: WriteOptions = {}): Promise<T> {
      return doCreate(kind, obj, opts);
    },

    async update<T extends KubernetesObject>(kind: Kind<T>, obj: T, opts: WriteOptions = {}): Promise<T> {
      const t = info(kind);
      const existing = existingOf(kind, obj);
      return write(kind, existing, keepStatus(t, existing, jsonClone(obj)), {
        dryRun: opts.dryRun,
        requireRV: true,
      });
    },

    async patch<T extends KubernetesObject>(
      kind: Kind<T>,
      obj: T | ObjectKey,
      patch: Patch,
      opts: WriteOptions = {},
    ): Promise<T> {
      const t = info(kind);
      const existing = existingOf(kind, obj);
      const next = keepStatus(t, existing, patched(kind, existing, patch));
      return write(kind, existing, next, { dryRun: opts.dryRun, requireRV: false });
    },

    async apply<T extends KubernetesObject>(kind: Kind<T>, obj: T, opts: ApplyOptions): Promise<T> {
      if (!opts?.fieldManager) throw badRequest("PATCH requests of type apply must have a fieldManager");
      const t = info(kind);
      const key = keyFor(kind, obj);
      const existing = bucket(kind).get(objKey(key.namespace, key.name));
      if (!existing) return doCreate(kind, obj, { dryRun: opts.dryRun });
      // Server-side apply approximated: the applied fields are merged in; ownership is not tracked.
      const body = jsonClone(obj) as KubernetesObject;
      delete body.metadata?.resourceVersion;
      const next = keepStatus(t, existing, applyMergePatch(existing, body) as KubernetesObject);
      return write(kind, existing, next, { dryRun: opts.dryRun, requireRV: false });
    },

    async delete<T extends KubernetesObject>(
      kind: Kind<T>,
      obj: T | ObjectKey,
      opts: DeleteOptions = {},
    ): Promise<void> {
      info(kind);
      const existing = existingOf(kind, obj);
      const em = existing.metadata ?? {};
      const pre = opts.preconditions;
      if (pre?.uid && pre.uid !== em.uid) {
        throw conflict(
          kind,
          em.name ?? "",
          `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${em.uid}`,
        );
      }
      if (pre?.resourceVersion && pre.resourceVersion !== em.resourceVersion) {
        throw conflict(
          kind,
          em.name ?? "",
          `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${em.resourceVersion}`,
        );
      }
      if (opts.dryRun) return;
      const key = objKey(em.namespace, em.name ?? "");
      if ((em.finalizers ?? []).length > 0) {
        if (em.deletionTimestamp) return;
        const next = jsonClone(existing);
        const nm = next.metadata as ObjectMeta;
        nm.deletionTimestamp = now();
        nm.deletionGracePeriodSeconds = 0;
        nm.resourceVersion = nextRV();
        bucket(kind).set(key, next);
        return;
      }
      bucket(kind).delete(key);
    },

    status: statusClient,

    subResource(name: string): SubResourceClient {
      if (name === "status") return statusClient();
      throw new Error(`fake client: subresource "${name}" is not emulated (only "status")`);
    },

    indexField(kind, field, extract) {
      const key = typeKey(kind.group, kind.kind);
      let m = indexes.get(key);
      if (!m) {
        m = new Map();
        indexes.set(key, m);
      }
      if (m.has(field)) throw new Error(`fake client: index ${field} for ${kind.kind} is already registered`);
      m.set(field, extract);
    },

    warnings() {
      return [...warnings];
    },
  };

  for (const ix of options.indexes ?? []) client.indexField(ix.kind, ix.field, ix.extract);
  return client;
}
