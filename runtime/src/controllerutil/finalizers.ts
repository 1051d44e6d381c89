import type { KubernetesObject } from "../api/meta.js";

/** Appends the finalizer unless present; true when the object changed. */
export function addFinalizer(object: KubernetesObject, finalizer: string): boolean {
  object.metadata ??= {};
  const list = object.metadata.finalizers ?? [];
  if (list.includes(finalizer)) return false;
  object.metadata.finalizers = [...list, finalizer];
  return true;
}

/** Removes every occurrence of the finalizer; true when the object changed. */
export function removeFinalizer(object: KubernetesObject, finalizer: string): boolean {
  const list = object.metadata?.finalizers;
  if (!list || !object.metadata) return false;
  const kept = list.filter((f) => f !== finalizer);
  if (kept.length === list.length) return false;
  object.metadata.finalizers = kept;
  return true;
}

export function containsFinalizer(object: KubernetesObject, finalizer: string): boolean {
  return object.metadata?.finalizers?.includes(finalizer) ?? false;
}
