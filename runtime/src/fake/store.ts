import { apiVersionOf, groupKindOf, type Kind } from "../api/kind.js";
import { builtinKinds } from "../api/kinds.js";
import type { KubernetesObject } from "../api/meta.js";
import type { IndexFunc } from "../cache/types.js";
import { ApiError, NotFoundError } from "../client/errors.js";
import type { ObjectKey } from "../client/types.js";
import type { ConversionRegistry } from "../conversion/registry.js";
import { jsonClone } from "../internal/json.js";
import { applyDefaults, prune } from "../validation/schema.js";
import { type CRDLike, type CRDType, type CRDVersion, loadCRD, readCRDFiles } from "./crds.js";
import { badRequest, notFound, status } from "./errors.js";

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

export const typeKey = (group: string, kind: string) => `${group}/${kind}`;
export const objKey = (namespace: string | undefined, name: string) => `${namespace ?? ""}/${name}`;
const groupOf = (apiVersion: string) =>
  apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";
export const now = () => new Date().toISOString().replace(/\.\d+Z$/, "Z");

/** A kind served without a CRD, with or without a status subresource. */
export interface FakeKind {
  kind: Kind;
  statusSubresource?: boolean;
}

/** The objects of one kind, as one version sees them. */
export interface Bucket {
  get(key: string): KubernetesObject | undefined;
  set(key: string, obj: KubernetesObject): unknown;
  has(key: string): boolean;
  delete(key: string): boolean;
  values(): Iterable<KubernetesObject>;
}

/** What the fake knows of a kind it serves: its descriptor, its CRD version if any, its status subresource. */
export interface TypeInfo {
  kind: Kind;
  crd?: CRDVersion;
  statusSubresource: boolean;
}

/**
 * The fake API server's state: the kinds it serves (built in, from CRDs, or given), the objects by
 * kind and key, the field indexes, the resourceVersion counter and the warnings it has sent.
 */
export class FakeStore {
  private readonly crdTypes = new Map<string, CRDType>();
  private readonly kinds = new Map<string, Kind>();
  private readonly statusKinds = new Set(BUILTIN_STATUS);
  private readonly buckets = new Map<string, Map<string, KubernetesObject>>();
  private readonly indexes = new Map<string, Map<string, IndexFunc<KubernetesObject>>>();
  readonly warnings: string[] = [];
  private resourceVersion = 0;

  constructor(
    kinds: Array<Kind | FakeKind>,
    crdDirectoryPaths: string[],
    crds: CRDLike[],
    private readonly conversions?: ConversionRegistry,
  ) {
    for (const k of builtinKinds) this.kinds.set(typeKey(k.group, k.kind), k);
    for (const entry of kinds) {
      const k = "kind" in entry && typeof entry.kind === "object" ? entry.kind : (entry as Kind);
      const key = typeKey(k.group, k.kind);
      const builtin = this.kinds.has(key);
      this.kinds.set(key, k);
      if ("statusSubresource" in entry && entry.statusSubresource) this.statusKinds.add(key);
      else if (!builtin) {
        this.warnings.push(
          `${k.kind} (${apiVersionOf(k)}) is registered with kinds and no CRD: it is served without schema, defaulting or CEL validation, and without a status subresource, so status writes fail. Pass its CRD instead (crdDirectoryPaths: ["config/crd/bases"], with // +kubebuilder:subresource:status on the type), or register { kind, statusSubresource: true }`,
        );
      }
    }
    const crdSources = [
      ...readCRDFiles(crdDirectoryPaths),
      ...crds.map((crd, i) => ({ crd, where: `crds[${i}]` })),
    ];
    for (const { crd, where } of crdSources) {
      const type = loadCRD(crd, where);
      this.crdTypes.set(typeKey(type.group, type.kind), type);
      const first = type.versions.values().next().value as CRDVersion | undefined;
      if (first) this.kinds.set(typeKey(type.group, type.kind), first.kind);
    }
  }

  info(kind: Kind): TypeInfo {
    const key = typeKey(kind.group, kind.kind);
    const crd = this.crdTypes.get(key);
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
    if (!this.kinds.has(key)) this.kinds.set(key, kind);
    return { kind, statusSubresource: this.statusKinds.has(key) };
  }

  /** Whether a kind was given without a CRD (createFakeClient({ kinds })) rather than built in or from a CRD. */
  isBare(kind: Kind): boolean {
    const key = typeKey(kind.group, kind.kind);
    return (
      !this.crdTypes.has(key) &&
      !BUILTIN_STATUS.has(key) &&
      !builtinKinds.some((b) => typeKey(b.group, b.kind) === key)
    );
  }

  /** The kind an object's apiVersion and kind name, as a seed object carries them. */
  findKind(apiVersion: string, kindName: string): Kind {
    const group = groupOf(apiVersion);
    const version = apiVersion.slice(apiVersion.indexOf("/") + 1);
    const crd = this.crdTypes.get(typeKey(group, kindName));
    const fromCrd = crd?.versions.get(version)?.kind;
    if (fromCrd) return fromCrd;
    const k = this.kinds.get(typeKey(group, kindName));
    if (!k)
      throw new Error(
        `fake client: unknown kind ${apiVersion} ${kindName}: pass its CRD (crds/crdDirectoryPaths) or its Kind (kinds)`,
      );
    return k.version === version ? k : { ...k, version };
  }

  /**
   * The objects of a kind as its version sees them. A kind in several versions stores each object once,
   * in the storage version (the CRD's, else its converter's hub); other versions read and write through
   * the conversion, as the API server does.
   */
  bucket(kind: Kind): Bucket {
    const key = typeKey(kind.group, kind.kind);
    let raw = this.buckets.get(key);
    if (!raw) {
      raw = new Map();
      this.buckets.set(key, raw);
    }
    const storage = this.storageVersionOf(kind);
    if (storage === undefined || storage === kind.version) return raw;
    const stored = raw;
    const served = apiVersionOf(kind);
    const storageAPIVersion = apiVersionOf({ ...kind, version: storage });
    return {
      get: (k) => {
        const o = stored.get(k);
        return o && this.convert(kind, o, served);
      },
      set: (k, o) => stored.set(k, this.convert(kind, o, storageAPIVersion)),
      has: (k) => stored.has(k),
      delete: (k) => stored.delete(k),
      values: () => [...stored.values()].map((o) => this.convert(kind, o, served)),
    };
  }

  private storageVersionOf(kind: Kind): string | undefined {
    const crd = this.crdTypes.get(typeKey(kind.group, kind.kind));
    if (crd) return crd.storageVersion;
    return this.conversions?.converterFor(kind.group, kind.kind)?.hub.version;
  }

  /**
   * obj in apiVersion: through the kind's converter when one is given; without, a CRD with the None
   * strategy changes only apiVersion, and one asking for a webhook is an error saying what to pass.
   * A converter that throws fails the request as the API server does (500, naming the webhook).
   * The result is pruned and defaulted by the target version's schema (checked against kube-apiserver).
   */
  private convert(kind: Kind, obj: KubernetesObject, apiVersion: string): KubernetesObject {
    if (obj.apiVersion === apiVersion) return obj;
    const crd = this.crdTypes.get(typeKey(kind.group, kind.kind));
    const converter = this.conversions?.converterFor(kind.group, kind.kind);
    let converted: KubernetesObject;
    if (converter) {
      try {
        converted = converter.convert(obj, apiVersion);
      } catch (err) {
        throw new ApiError(
          status(
            500,
            "InternalError",
            `conversion webhook for ${obj.apiVersion}, Kind=${kind.kind} failed: ${(err as Error)?.message ?? String(err)}`,
          ),
          500,
        );
      }
    } else if (crd?.conversionStrategy === "Webhook") {
      throw new Error(
        `fake client: CRD ${crd.name} converts ${groupKindOf(kind)} between versions with a webhook; pass its converter: createFakeClient({ conversions: [hubAndSpokes(Hub, ...spokes)] })`,
      );
    } else {
      converted = { ...jsonClone(obj), apiVersion };
    }
    // As the API server: what the target version's schema does not know is pruned, and its defaults applied.
    const schema = crd?.versions.get(apiVersion.slice(apiVersion.indexOf("/") + 1))?.schema;
    if (schema) {
      prune(converted, schema);
      applyDefaults(converted, schema);
    }
    return converted;
  }

  keyFor(kind: Kind, obj: KubernetesObject | ObjectKey): { namespace?: string; name: string } {
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

  existingOf(kind: Kind, obj: KubernetesObject | ObjectKey): KubernetesObject {
    const key = this.keyFor(kind, obj);
    const existing = this.bucket(kind).get(objKey(key.namespace, key.name));
    if (!existing) throw notFound(kind, key.name);
    return existing;
  }

  nextRV(): string {
    this.resourceVersion += 1;
    return String(this.resourceVersion);
  }

  /** Seeds may carry resourceVersions: later writes count on from the highest. */
  advanceRV(): void {
    const seeded = [...this.buckets.values()].flatMap((b) =>
      [...b.values()].map((o) => Number(o.metadata?.resourceVersion) || 0),
    );
    this.resourceVersion = Math.max(this.resourceVersion, ...seeded);
  }

  // biome-ignore lint/suspicious/noExplicitAny: any object type's extractor fits
  addIndex(kind: Kind, field: string, extract: IndexFunc<any>): void {
    const key = typeKey(kind.group, kind.kind);
    let m = this.indexes.get(key);
    if (!m) {
      m = new Map();
      this.indexes.set(key, m);
    }
    if (m.has(field)) throw new Error(`fake client: index ${field} for ${kind.kind} is already registered`);
    m.set(field, extract);
  }

  indexValues(kind: Kind, field: string, obj: KubernetesObject): string[] {
    if (field === "metadata.name") return [obj.metadata?.name ?? ""];
    if (field === "metadata.namespace") return [obj.metadata?.namespace ?? ""];
    const fn = this.indexes.get(typeKey(kind.group, kind.kind))?.get(field);
    if (!fn) {
      throw new Error(
        `List on ${apiVersionOf(kind)} ${kind.kind} specifies selector on field ${field}, but no index with name ${field} has been registered for it (register it with indexes or indexField)`,
      );
    }
    return fn(obj);
  }
}

/** What the client returns: a copy of the stored object with its apiVersion and kind. */
export function out<T extends KubernetesObject>(kind: Kind, obj: KubernetesObject): T {
  return { ...jsonClone(obj), apiVersion: apiVersionOf(kind), kind: kind.kind } as T;
}
