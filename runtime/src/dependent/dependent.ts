/**
 * Dependent resources: objects a controller derives from its primary (a Deployment from a
 * Memcached), declared once as `dependent(Deployment, { desired: (m) => ..., ready })` instead of the
 * get / compare / create-or-update code every reconciler repeats. This is the Java Operator SDK's
 * KubernetesDependentResource reduced to what a TypeScript object literal can say; controller-runtime
 * has no counterpart beyond controllerutil.CreateOrUpdate.
 *
 * Reconciling one dependent:
 * 1. `desired(primary)` is completed: apiVersion/kind from the Kind, the primary's namespace for a
 *    namespaced dependent that names none (and the primary's name, when it names none and lives in
 *    the primary's namespace), and a link to the primary. The link is a controller owner
 *    reference when garbage collection can follow it (a cluster-scoped primary, or a dependent in the
 *    primary's namespace); otherwise (a cluster-scoped or cross-namespace dependent of a namespaced
 *    primary, which an owner reference cannot name) it is the `dependents.kbts.io/primary`
 *    annotation, and the workflow deletes the dependent itself when the primary goes.
 * 2. The cached copy is read (the client's read-your-own-writes makes it at least our last write).
 * 3. If it holds every value desired sets (matches.ts), nothing is sent: a steady-state reconcile
 *    makes no API write at all (JOSDK 5.5's "skip the write when the cache already matches").
 * 4. Otherwise the desired object is server-side applied with the controller's field manager and
 *    force: the controller owns exactly the fields it sets, takes them back when someone else changed
 *    them, and leaves every field of other managers alone. Status is never applied.
 */

import { apiVersionOf, groupKindOf, type Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { objectKey } from "../client/client.js";
import { isNotFound } from "../client/errors.js";
import { getIfExists } from "../client/get-if-exists.js";
import type { Client, ObjectKey } from "../client/types.js";
import { setControllerReference } from "../controllerutil/ownerref.js";
import { jsonClone } from "../internal/json.js";
import { matchesDesired } from "./matches.js";

/** Names the primary of a dependent that cannot carry an owner reference to it ("Kind.group/ns/name"). */
export const PRIMARY_ANNOTATION = "dependents.kbts.io/primary";

/**
 * One dependent resource of primaries of type P. Conditions are methods so a
 * `Dependent<P, Deployment>` is also a `Dependent<P>` in a list of mixed kinds.
 */
export interface DependentOptions<P extends KubernetesObject, T extends KubernetesObject> {
  /** Names it in dependsOn, condition reasons and logs; unique in a workflow. Default: the kind ("Deployment"). */
  name?: string;
  /** The object as it should be for this primary: only the fields this controller owns. */
  desired(primary: P): T;
  /** Ready postcondition: dependents that depend on this one wait until it holds. Default: always ready. */
  ready?(actual: T, primary: P): boolean;
  /** Reconciled only after these are reconciled and ready (JOSDK's dependsOn). */
  dependsOn?: readonly Dependent<P>[];
  /** Reconcile precondition: while false the dependent is left as it is, and its dependents wait. */
  reconcileWhen?(primary: P): boolean | Promise<boolean>;
  /**
   * Activation condition: while false the dependent is not reconciled, not read and not watched (its
   * kind may not even exist, e.g. an optional CRD: see crdEstablished). Its dependents wait.
   */
  activeWhen?(primary: P): boolean | Promise<boolean>;
  /**
   * Delete postcondition, checked when the primary is deleted: the dependents this one depends on are
   * deleted only once it holds. Default: the object is gone (always true for a garbage-collected one).
   */
  deletedWhen?(actual: T | undefined, primary: P): boolean | Promise<boolean>;
}

export interface Dependent<P extends KubernetesObject, T extends KubernetesObject = KubernetesObject>
  extends DependentOptions<P, T> {
  readonly kind: Kind<T>;
  readonly name: string;
}

/** Declares a dependent of kind `kind`; `desired` is typed by the kind's object. */
export function dependent<P extends KubernetesObject, T extends KubernetesObject>(
  kind: Kind<T>,
  options: DependentOptions<P, T>,
): Dependent<P, T> {
  const name = options.name ?? kind.kind;
  if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(name)) {
    throw new Error(
      `dependent name "${name}" must start with a letter and hold only letters, digits and "-" (it becomes a condition reason)`,
    );
  }
  return { ...options, kind, name };
}

/** What reconciling one dependent did. */
export interface DependentApplyResult<T extends KubernetesObject> {
  /** The object as the cache or the API server's answer has it. */
  object: T;
  /** False when the cached copy already matched and nothing was sent. */
  wrote: boolean;
}

/** Whether garbage collection deletes this dependent with its primary (an owner reference can name it). */
export function garbageCollected(kind: Kind, primary: KubernetesObject, desired: KubernetesObject): boolean {
  const primaryNs = primary.metadata?.namespace;
  if (!primaryNs) return true; // a cluster-scoped owner may own anything
  return kind.namespaced && (desired.metadata?.namespace ?? primaryNs) === primaryNs;
}

/** "Kind.group/namespace/name" (or "Kind.group/name" for a cluster-scoped primary). */
export function primaryReference(primaryKind: Kind, primary: KubernetesObject): string {
  const ns = primary.metadata?.namespace;
  return `${groupKindOf(primaryKind)}/${ns ? `${ns}/` : ""}${primary.metadata?.name ?? ""}`;
}

/** Parses PRIMARY_ANNOTATION back into a key, if it names a primary of `primaryKind`. */
export function primaryKeyFrom(primaryKind: Kind, obj: KubernetesObject): ObjectKey | undefined {
  const ref = obj.metadata?.annotations?.[PRIMARY_ANNOTATION];
  const prefix = `${groupKindOf(primaryKind)}/`;
  if (!ref?.startsWith(prefix)) return undefined;
  const rest = ref.slice(prefix.length).split("/");
  if (rest.length === 2) return { namespace: rest[0], name: rest[1] as string };
  if (rest.length === 1 && rest[0]) return { name: rest[0] };
  return undefined;
}

/** The object to apply: desired(primary) with type meta, namespace, the link to the primary, and no status. */
export function desiredObject<P extends KubernetesObject, T extends KubernetesObject>(
  dep: Dependent<P, T>,
  primaryKind: Kind<P>,
  primary: P,
): T {
  const computed = dep.desired(primary);
  const obj = jsonClone(computed) as T & { status?: unknown };
  delete obj.status;
  obj.apiVersion = apiVersionOf(dep.kind);
  obj.kind = dep.kind.kind;
  obj.metadata ??= {};
  if (dep.kind.namespaced) {
    obj.metadata.namespace ??= primary.metadata?.namespace;
    if (!obj.metadata.namespace) {
      throw new Error(
        `dependent ${dep.name}: ${dep.kind.kind} is namespaced and the primary is cluster-scoped: set metadata.namespace in desired()`,
      );
    }
  } else if (obj.metadata.namespace) {
    throw new Error(
      `dependent ${dep.name}: ${dep.kind.kind} is cluster-scoped: leave metadata.namespace out`,
    );
  }
  // One object per primary in the primary's namespace may go by the primary's name (JOSDK's default);
  // elsewhere two primaries of one name would fight over it.
  if (
    !obj.metadata.name &&
    obj.metadata.namespace &&
    obj.metadata.namespace === primary.metadata?.namespace
  ) {
    obj.metadata.name = primary.metadata?.name;
  }
  if (!obj.metadata.name) {
    throw new Error(
      `dependent ${dep.name}: desired() returned a ${dep.kind.kind} without metadata.name (only a dependent in its primary's namespace takes the primary's name)`,
    );
  }
  const owner = { ...primary, apiVersion: apiVersionOf(primaryKind), kind: primaryKind.kind };
  if (garbageCollected(dep.kind, primary, obj)) {
    setControllerReference(owner, obj);
  } else {
    obj.metadata.annotations = {
      ...obj.metadata.annotations,
      [PRIMARY_ANNOTATION]: primaryReference(primaryKind, primary),
    };
  }
  return obj;
}

/**
 * Brings one dependent to its desired state: applies it (server-side, forced, as `fieldManager`)
 * unless the cached copy already matches, in which case nothing is sent.
 */
export async function reconcileDependent<P extends KubernetesObject, T extends KubernetesObject>(
  client: Client,
  fieldManager: string,
  dep: Dependent<P, T>,
  primaryKind: Kind<P>,
  primary: P,
): Promise<DependentApplyResult<T>> {
  const desired = desiredObject(dep, primaryKind, primary);
  const actual = await getIfExists(client, dep.kind, objectKey(dep.kind, desired));
  if (actual && matchesDesired(desired, actual)) return { object: actual, wrote: false };
  const object = await client.apply(dep.kind, desired, { fieldManager, force: true });
  return { object, wrote: true };
}

/**
 * Deletes what this primary made of a dependent's kind outside the garbage collector's reach, found by
 * the primary annotation: cleanup's way when `desired()` fails for the primary as it is now (a spec
 * that broke it must not keep the primary from being deleted). Returns true when nothing is left.
 */
export async function deleteAnnotatedDependents<P extends KubernetesObject>(
  client: Client,
  dep: Dependent<P>,
  primaryKind: Kind<P>,
  primary: P,
): Promise<boolean> {
  const ref = primaryReference(primaryKind, primary);
  const made = (await client.list(dep.kind)).filter(
    (o) => o.metadata?.annotations?.[PRIMARY_ANNOTATION] === ref,
  );
  for (const o of made) {
    await deleteMade(client, dep.kind, { namespace: o.metadata?.namespace, name: o.metadata?.name ?? "" }, o);
  }
  return made.length === 0;
}

/**
 * Deletes `actual` (this very object: a uid precondition) unless it is already being deleted;
 * returns true when it turns out to be gone already.
 */
async function deleteMade(
  client: Client,
  kind: Kind,
  key: ObjectKey,
  actual: KubernetesObject,
): Promise<boolean> {
  if (actual.metadata?.deletionTimestamp) return false;
  const uid = actual.metadata?.uid;
  try {
    await client.delete(kind, key, {
      propagationPolicy: "Background",
      preconditions: uid ? { uid } : undefined,
    });
    return false;
  } catch (err) {
    if (!isNotFound(err)) throw err;
    return true;
  }
}

/**
 * Deletes a dependent the garbage collector cannot (cluster-scoped or cross-namespace), if it is
 * still there and still ours; returns the object as it was, or undefined when it is gone.
 */
export async function deleteDependent<P extends KubernetesObject, T extends KubernetesObject>(
  client: Client,
  dep: Dependent<P, T>,
  primaryKind: Kind<P>,
  primary: P,
): Promise<T | undefined> {
  const desired = desiredObject(dep, primaryKind, primary);
  const key = objectKey(dep.kind, desired);
  const actual = await getIfExists(client, dep.kind, key);
  if (!actual) return undefined;
  if (garbageCollected(dep.kind, primary, desired)) return actual; // the garbage collector's job
  // Only what this primary made: a same-named object of someone else is left alone.
  if (actual.metadata?.annotations?.[PRIMARY_ANNOTATION] !== primaryReference(primaryKind, primary)) {
    return undefined;
  }
  return (await deleteMade(client, dep.kind, key, actual)) ? undefined : actual;
}
