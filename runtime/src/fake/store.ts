import { builtinKinds } from "../api/kinds.js";
import type { KubernetesObject } from "../api/meta.js";
import type { IndexFunc } from "../cache/types.js";
import { NotFoundError } from "../client/errors.js";
import type { ObjectKey } from "../client/types.js";
import { jsonClone } from "../controllerutil/json.js";
import { apiVersionOf, type Kind } from "../kinds.js";
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

  constructor(kinds: Array<Kind | FakeKind>, crdDirectoryPaths: string[], crds: CRDLike[]) {
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

  bucket(kind: Kind): Map<string, KubernetesObject> {
    const key = typeKey(kind.group, kind.kind);
    let b = this.buckets.get(key);
    if (!b) {
      b = new Map();
      this.buckets.set(key, b);
    }
    return b;
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
