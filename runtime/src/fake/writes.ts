import { randomBytes, randomUUID } from "node:crypto";
import { apiVersionOf, type Kind } from "../api/kind.js";
import type { KubernetesObject, ObjectMeta } from "../api/meta.js";
import { AlreadyExistsError } from "../client/errors.js";
import type { ApplyOptions, DeleteOptions, ObjectKey, WriteOptions } from "../client/types.js";
import { jsonClone, jsonEqual } from "../internal/json.js";
import { invalidError } from "../validation/fielderrors.js";
import { admit } from "./admission.js";
import { badRequest, conflict, MODIFIED, qualifiedResource, status } from "./errors.js";
import { applyMergePatch } from "./jsonpatch.js";
import { type FakeStore, now, objKey, out, type TypeInfo } from "./store.js";

/** create (and the seeding of initial objects, which may carry server-set fields). */
export function create<T extends KubernetesObject>(
  store: FakeStore,
  kind: Kind<T>,
  input: T,
  opts: { dryRun?: boolean } = {},
  seeding = false,
): T {
  const t = store.info(kind);
  const obj = jsonClone(input) as KubernetesObject;
  obj.apiVersion = apiVersionOf(kind);
  obj.kind = kind.kind;
  obj.metadata ??= {};
  const meta: ObjectMeta = obj.metadata;
  if (meta.resourceVersion && !seeding)
    throw badRequest("resourceVersion can not be set for Create requests");
  if (!meta.name && meta.generateName) {
    const b = store.bucket(kind);
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
  if (store.bucket(kind).has(key)) {
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
  admit(t, obj, undefined, store.warnings);
  meta.uid ??= randomUUID();
  meta.creationTimestamp ??= now();
  if (t.crd || (obj as Record<string, unknown>).spec !== undefined) meta.generation ??= 1;
  meta.resourceVersion = seeding && meta.resourceVersion ? meta.resourceVersion : store.nextRV();
  if (!opts.dryRun) store.bucket(kind).set(key, obj);
  return out<T>(kind, obj);
}

/** update: the whole object, with a resourceVersion; status is kept when it is a subresource. */
export function update<T extends KubernetesObject>(
  store: FakeStore,
  kind: Kind<T>,
  obj: T,
  opts: WriteOptions,
): T {
  const t = store.info(kind);
  const existing = store.existingOf(kind, obj);
  return commit(store, kind, existing, keepStatus(t, existing, jsonClone(obj)), {
    dryRun: opts.dryRun,
    requireRV: true,
  });
}

/** apply: server-side apply approximated; the applied fields are merged in, ownership is not tracked. */
export function apply<T extends KubernetesObject>(
  store: FakeStore,
  kind: Kind<T>,
  obj: T,
  opts: ApplyOptions,
): T {
  if (!opts?.fieldManager) throw badRequest("PATCH requests of type apply must have a fieldManager");
  const t = store.info(kind);
  const key = store.keyFor(kind, obj);
  const existing = store.bucket(kind).get(objKey(key.namespace, key.name));
  if (!existing) return create(store, kind, obj, { dryRun: opts.dryRun });
  const body = jsonClone(obj) as KubernetesObject;
  delete body.metadata?.resourceVersion;
  const next = keepStatus(t, existing, applyMergePatch(existing, body) as KubernetesObject);
  return commit(store, kind, existing, next, { dryRun: opts.dryRun, requireRV: false });
}

/** delete: with finalizers the object only gets a deletionTimestamp; without, it is gone. */
export function remove<T extends KubernetesObject>(
  store: FakeStore,
  kind: Kind<T>,
  obj: T | ObjectKey,
  opts: DeleteOptions,
): void {
  store.info(kind);
  const existing = store.existingOf(kind, obj);
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
    nm.resourceVersion = store.nextRV();
    store.bucket(kind).set(key, next);
    return;
  }
  store.bucket(kind).delete(key);
}

/** For the main resource of a kind with a status subresource, status is not writable. */
export function keepStatus(
  t: TypeInfo,
  existing: KubernetesObject,
  next: KubernetesObject,
): KubernetesObject {
  if (!t.statusSubresource) return next;
  const n = next as Record<string, unknown>;
  const e = existing as Record<string, unknown>;
  if (e.status === undefined) delete n.status;
  else n.status = jsonClone(e.status);
  return next;
}

function generationChanged(t: TypeInfo, a: KubernetesObject, b: KubernetesObject): boolean {
  const pick = (o: KubernetesObject) => {
    const { metadata: _m, status: s, ...rest } = o as Record<string, unknown>;
    if (!t.crd) return rest.spec;
    return t.statusSubresource ? rest : { ...rest, status: s };
  };
  return !jsonEqual(pick(a), pick(b));
}

/** The shared tail of update, patch and status writes: checks, bookkeeping, finalizer deletion, store. */
export function commit<T extends KubernetesObject>(
  store: FakeStore,
  kind: Kind<T>,
  existing: KubernetesObject,
  next: KubernetesObject,
  opts: { dryRun?: boolean; requireRV: boolean; subresource?: "status" },
): T {
  const t = store.info(kind);
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
  admit(t, next, existing, store.warnings, opts.subresource);
  if (jsonEqual(next, existing)) return out<T>(kind, existing); // no-op writes keep the resourceVersion
  if (em.generation !== undefined && generationChanged(t, existing, next)) nm.generation = em.generation + 1;
  nm.resourceVersion = store.nextRV();
  if (!opts.dryRun) {
    const key = objKey(nm.namespace, nm.name ?? "");
    if (nm.deletionTimestamp && !(nm.finalizers ?? []).length) store.bucket(kind).delete(key);
    else store.bucket(kind).set(key, next);
  }
  return out<T>(kind, next);
}
