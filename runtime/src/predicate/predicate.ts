import type { KubernetesObject, LabelSelector } from "../api/meta.js";
import { matchesSelector, parseSelector } from "../client/selector.js";
import type { CreateEvent, DeleteEvent, GenericEvent, UpdateEvent } from "../handler/types.js";

/**
 * Filters events before they reach a handler (controller-runtime's predicate.Predicate).
 * A missing method lets that event type through, as a nil func in predicate.Funcs.
 */
export interface Predicate<T extends KubernetesObject = KubernetesObject> {
  create?(event: CreateEvent<T>): boolean;
  update?(event: UpdateEvent<T>): boolean;
  delete?(event: DeleteEvent<T>): boolean;
  generic?(event: GenericEvent<T>): boolean;
}

export type PredicateEventType = "create" | "update" | "delete" | "generic";

/** Evaluates predicates in order; the first false drops the event. */
export function evaluatePredicates<T extends KubernetesObject>(
  predicates: readonly Predicate<T>[],
  type: PredicateEventType,
  event: CreateEvent<T> | UpdateEvent<T> | DeleteEvent<T> | GenericEvent<T>,
): boolean {
  for (const p of predicates) {
    const fn = p[type] as ((e: typeof event) => boolean) | undefined;
    if (fn && !fn.call(p, event)) return false;
  }
  return true;
}

/** One filter for all four events; updates are judged on the new object. */
export function newPredicateFuncs<T extends KubernetesObject = KubernetesObject>(
  filter: (obj: T) => boolean,
): Predicate<T> {
  return {
    create: (e) => filter(e.object),
    update: (e) => filter(e.objectNew),
    delete: (e) => filter(e.object),
    generic: (e) => filter(e.object),
  };
}

// The change predicates filter updates only; create, delete and generic always pass.
function updateOnly<T extends KubernetesObject>(changed: (oldObj: T, newObj: T) => boolean): Predicate<T> {
  return {
    update: (e) => (e.objectOld && e.objectNew ? changed(e.objectOld, e.objectNew) : false),
  };
}

/** Passes updates whose resourceVersion changed: drops resyncs. */
export function resourceVersionChangedPredicate<
  T extends KubernetesObject = KubernetesObject,
>(): Predicate<T> {
  return updateOnly((a, b) => a.metadata?.resourceVersion !== b.metadata?.resourceVersion);
}

/**
 * Passes updates whose metadata.generation changed: drops status-only and metadata-only writes.
 * (Some kinds, such as Deployment, also bump generation on annotation changes.)
 */
export function generationChangedPredicate<T extends KubernetesObject = KubernetesObject>(): Predicate<T> {
  return updateOnly((a, b) => a.metadata?.generation !== b.metadata?.generation);
}

function mapsEqual(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  return ka.every((k) => b !== undefined && Object.hasOwn(b, k) && b[k] === a?.[k]);
}

/** Passes updates whose labels changed (absent equals empty). */
export function labelChangedPredicate<T extends KubernetesObject = KubernetesObject>(): Predicate<T> {
  return updateOnly((a, b) => !mapsEqual(a.metadata?.labels, b.metadata?.labels));
}

/** Passes updates whose annotations changed (absent equals empty). */
export function annotationChangedPredicate<T extends KubernetesObject = KubernetesObject>(): Predicate<T> {
  return updateOnly((a, b) => !mapsEqual(a.metadata?.annotations, b.metadata?.annotations));
}

/** Passes objects (the new one on update) whose labels match; throws on an invalid selector. */
export function labelSelectorPredicate<T extends KubernetesObject = KubernetesObject>(
  selector: LabelSelector,
): Predicate<T> {
  // The client's selector parser, so a predicate and a cached list agree on what a selector means.
  const parsed = parseSelector(selector);
  return newPredicateFuncs((obj: T) => matchesSelector(parsed, obj.metadata?.labels));
}

/** All must pass (short-circuit); and() passes everything. */
export function and<T extends KubernetesObject = KubernetesObject>(
  ...predicates: Predicate<T>[]
): Predicate<T> {
  return {
    create: (e) => evaluatePredicates(predicates, "create", e),
    update: (e) => evaluatePredicates(predicates, "update", e),
    delete: (e) => evaluatePredicates(predicates, "delete", e),
    generic: (e) => evaluatePredicates(predicates, "generic", e),
  };
}

/** Any must pass (short-circuit); or() passes nothing. */
export function or<T extends KubernetesObject = KubernetesObject>(
  ...predicates: Predicate<T>[]
): Predicate<T> {
  const any = (type: PredicateEventType, e: Parameters<typeof evaluatePredicates<T>>[2]) =>
    predicates.some((p) => evaluatePredicates([p], type, e));
  return {
    create: (e) => any("create", e),
    update: (e) => any("update", e),
    delete: (e) => any("delete", e),
    generic: (e) => any("generic", e),
  };
}

/** Negates each method (a missing method, i.e. true, becomes false). */
export function not<T extends KubernetesObject = KubernetesObject>(predicate: Predicate<T>): Predicate<T> {
  return {
    create: (e) => !evaluatePredicates([predicate], "create", e),
    update: (e) => !evaluatePredicates([predicate], "update", e),
    delete: (e) => !evaluatePredicates([predicate], "delete", e),
    generic: (e) => !evaluatePredicates([predicate], "generic", e),
  };
}
