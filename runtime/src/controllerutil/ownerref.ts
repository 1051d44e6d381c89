import type { KubernetesObject, OwnerReference } from "../api/meta.js";

/** controller-runtime's AlreadyOwnedError: the object already has a controller, and it is not `owner`. */
export class AlreadyOwnedError extends Error {
  readonly object: KubernetesObject;
  readonly owner: OwnerReference;
  constructor(object: KubernetesObject, owner: OwnerReference) {
    super(
      `Object ${object.metadata?.namespace ?? ""}/${object.metadata?.name ?? ""} is already owned by another ${owner.kind} controller ${owner.name}`,
    );
    this.name = "AlreadyOwnedError";
    this.object = object;
    this.owner = owner;
  }
}

export interface OwnerReferenceOptions {
  /** Overrides blockOwnerDeletion (true for controller references, unset otherwise). */
  blockOwnerDeletion?: boolean;
}

/**
 * Makes `owner` the managing controller of `object` (controller: true, blockOwnerDeletion: true), so
 * garbage collection deletes `object` with its owner and `owns()` watches map it back to the owner.
 * Throws AlreadyOwnedError when another controller owns it, and an Error for a namespaced owner of a
 * cluster-scoped object or an owner in another namespace.
 */
export function setControllerReference(
  owner: KubernetesObject,
  object: KubernetesObject,
  options: OwnerReferenceOptions = {},
): void {
  const ref: OwnerReference = {
    ...referenceTo(owner),
    blockOwnerDeletion: options.blockOwnerDeletion ?? true,
    controller: true,
  };
  validateOwner(owner, object);
  const existing = (object.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
  if (existing && !referSameObject(existing, ref)) throw new AlreadyOwnedError(object, existing);
  upsert(object, ref);
}

/** Adds (or refreshes) a plain owner reference; never complains about an existing controller. */
export function setOwnerReference(
  owner: KubernetesObject,
  object: KubernetesObject,
  options: OwnerReferenceOptions = {},
): void {
  const ref = referenceTo(owner);
  if (options.blockOwnerDeletion !== undefined) ref.blockOwnerDeletion = options.blockOwnerDeletion;
  validateOwner(owner, object);
  upsert(object, ref);
}

/** Removes every reference to `owner`; throws when the object has no references or none to `owner`. */
export function removeOwnerReference(owner: KubernetesObject, object: KubernetesObject): void {
  const refs = object.metadata?.ownerReferences ?? [];
  if (refs.length === 0) throw new Error(`${describe(object)} does not have any owner references`);
  const target = referenceTo(owner);
  const kept = refs.filter((r) => !referSameObject(r, target));
  if (kept.length === refs.length) {
    throw new Error(`${describe(object)} does not have an owner reference for ${describe(owner)}`);
  }
  setRefs(object, kept);
}

/** Removes the controller reference to `owner`; throws when `owner` is not the object's controller. */
export function removeControllerReference(owner: KubernetesObject, object: KubernetesObject): void {
  const target = referenceTo(owner);
  const refs = object.metadata?.ownerReferences ?? [];
  const kept = refs.filter((r) => !(r.controller === true && referSameObject(r, target)));
  if (kept.length === refs.length) {
    throw new Error(`${describe(object)} does not have a controller reference for ${describe(owner)}`);
  }
  setRefs(object, kept);
}

/** Whether any owner reference has controller: true. */
export function hasControllerReference(object: KubernetesObject): boolean {
  return (object.metadata?.ownerReferences ?? []).some((r) => r.controller === true);
}

/** Whether `object` has an owner reference to `owner` (group, kind and name; version and uid ignored). */
export function hasOwnerReference(object: KubernetesObject, owner: KubernetesObject): boolean {
  const target = referenceTo(owner);
  return (object.metadata?.ownerReferences ?? []).some((r) => referSameObject(r, target));
}

function referenceTo(owner: KubernetesObject): OwnerReference {
  const { apiVersion, kind } = owner;
  const name = owner.metadata?.name;
  const uid = owner.metadata?.uid;
  if (!apiVersion || !kind) {
    throw new Error(
      `owner ${name ?? "<unnamed>"} has no apiVersion/kind: use an object read through the client`,
    );
  }
  if (!name || !uid) {
    throw new Error(
      `owner ${kind} ${name ?? "<unnamed>"} has no name or uid: create it before referencing it`,
    );
  }
  return { apiVersion, kind, name, uid };
}

function validateOwner(owner: KubernetesObject, object: KubernetesObject): void {
  const ownerNs = owner.metadata?.namespace ?? "";
  if (ownerNs === "") return; // cluster-scoped owners may own anything
  const objectNs = object.metadata?.namespace ?? "";
  if (objectNs === "") {
    throw new Error(
      `cluster-scoped resource must not have a namespace-scoped owner, owner's namespace ${ownerNs}`,
    );
  }
  if (ownerNs !== objectNs) {
    throw new Error(
      `cross-namespace owner references are disallowed, owner's namespace ${ownerNs}, obj's namespace ${objectNs}`,
    );
  }
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}

function referSameObject(a: OwnerReference, b: OwnerReference): boolean {
  return groupOf(a.apiVersion) === groupOf(b.apiVersion) && a.kind === b.kind && a.name === b.name;
}

function upsert(object: KubernetesObject, ref: OwnerReference): void {
  const refs = [...(object.metadata?.ownerReferences ?? [])];
  const i = refs.findIndex((r) => referSameObject(r, ref));
  if (i >= 0) refs[i] = ref;
  else refs.push(ref);
  setRefs(object, refs);
}

function setRefs(object: KubernetesObject, refs: OwnerReference[]): void {
  object.metadata ??= {};
  if (refs.length === 0) delete object.metadata.ownerReferences;
  else object.metadata.ownerReferences = refs;
}

function describe(obj: KubernetesObject): string {
  const ns = obj.metadata?.namespace;
  return `${obj.kind ?? "object"} ${ns ? `${ns}/` : ""}${obj.metadata?.name ?? ""}`;
}
