import type { Kind } from "../api/kind.js";
import type { KubernetesObject, OwnerReference } from "../api/meta.js";
import { type Request, requestKey } from "../reconcile/types.js";
import type { EventHandler, RequestQueue } from "./types.js";

/** Priority of events that are not real changes: the initial list and resyncs (controller-runtime's handler.LowPriority). */
export const LowPriority = -100;

function requestFor(obj: KubernetesObject | undefined): Request | undefined {
  const name = obj?.metadata?.name;
  if (!name) return undefined;
  const namespace = obj?.metadata?.namespace;
  return namespace ? { namespace, name } : { name };
}

function unchanged(oldObj: KubernetesObject, newObj: KubernetesObject): boolean {
  const a = oldObj.metadata?.resourceVersion;
  return a !== undefined && a === newObj.metadata?.resourceVersion;
}

function addAll(queue: RequestQueue, requests: Iterable<Request>, priority?: number): void {
  const seen = new Set<string>();
  for (const r of requests) {
    const key = requestKey(r);
    if (seen.has(key)) continue;
    seen.add(key);
    queue.add(r, priority === undefined ? undefined : { priority });
  }
}

/** Handler callbacks; a missing one ignores that event type (controller-runtime's handler.Funcs). */
export function handlerFuncs<T extends KubernetesObject = KubernetesObject>(
  funcs: Partial<EventHandler<T>>,
): EventHandler<T> {
  return {
    create: (e, q) => funcs.create?.(e, q),
    update: (e, q) => funcs.update?.(e, q),
    delete: (e, q) => funcs.delete?.(e, q),
    generic: (e, q) => funcs.generic?.(e, q),
  };
}

/** Reconciles the object the event is about. */
export function enqueueRequestForObject<T extends KubernetesObject = KubernetesObject>(): EventHandler<T> {
  return {
    create(e, q) {
      const r = requestFor(e.object);
      if (r) q.add(r, e.isInInitialList ? { priority: LowPriority } : undefined);
    },
    update(e, q) {
      const r = requestFor(e.objectNew) ?? requestFor(e.objectOld);
      if (r) q.add(r, unchanged(e.objectOld, e.objectNew) ? { priority: LowPriority } : undefined);
    },
    delete(e, q) {
      const r = requestFor(e.object);
      if (r) q.add(r);
    },
    generic(e, q) {
      const r = requestFor(e.object);
      if (r) q.add(r);
    },
  };
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}

export interface EnqueueRequestForOwnerOptions {
  /**
   * Only the owner reference with `controller: true` (what `owns()` uses). Default false: every
   * owner reference of the owner's kind, as controller-runtime's EnqueueRequestForOwner without OnlyControllerOwner.
   */
  onlyControllerOwner?: boolean;
}

/**
 * Reconciles the owners of the object: owner references whose kind and API group (not version)
 * match `ownerKind`. The namespace is the object's, or none for a cluster-scoped owner kind.
 */
export function enqueueRequestForOwner<T extends KubernetesObject = KubernetesObject>(
  ownerKind: Kind,
  options: EnqueueRequestForOwnerOptions = {},
): EventHandler<T> {
  const owners = (obj: KubernetesObject | undefined): Request[] => {
    if (!obj) return [];
    let refs: OwnerReference[] = obj.metadata?.ownerReferences ?? [];
    if (options.onlyControllerOwner) {
      const c = refs.find((r) => r.controller === true);
      refs = c ? [c] : [];
    }
    const out: Request[] = [];
    for (const ref of refs) {
      if (ref.kind !== ownerKind.kind || groupOf(ref.apiVersion ?? "") !== ownerKind.group) continue;
      const ns = obj.metadata?.namespace;
      out.push(ownerKind.namespaced && ns ? { namespace: ns, name: ref.name } : { name: ref.name });
    }
    return out;
  };
  return {
    create(e, q) {
      addAll(q, owners(e.object), e.isInInitialList ? LowPriority : undefined);
    },
    update(e, q) {
      addAll(
        q,
        [...owners(e.objectOld), ...owners(e.objectNew)],
        unchanged(e.objectOld, e.objectNew) ? LowPriority : undefined,
      );
    },
    delete(e, q) {
      addAll(q, owners(e.object));
    },
    generic(e, q) {
      addAll(q, owners(e.object));
    },
  };
}

export type MapFunc<T extends KubernetesObject = KubernetesObject> = (
  obj: T,
) => Request[] | Promise<Request[]>;

/** Reconciles whatever `map` returns for the object (old and new on update, deduplicated). */
export function enqueueRequestsFromMapFunc<T extends KubernetesObject = KubernetesObject>(
  map: MapFunc<T>,
): EventHandler<T> {
  return {
    async create(e, q) {
      addAll(q, await map(e.object), e.isInInitialList ? LowPriority : undefined);
    },
    async update(e, q) {
      const [a, b] = await Promise.all([map(e.objectOld), map(e.objectNew)]);
      addAll(q, [...a, ...b], unchanged(e.objectOld, e.objectNew) ? LowPriority : undefined);
    },
    async delete(e, q) {
      addAll(q, await map(e.object));
    },
    async generic(e, q) {
      addAll(q, await map(e.object));
    },
  };
}
