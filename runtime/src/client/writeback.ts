/**
 * controller-runtime decodes a write's response into the object passed in, so after
 * `Update(ctx, &obj)` the object carries the new resourceVersion and a following
 * `Status().Update(ctx, &obj)` does not conflict. Every write here does the same.
 */

/**
 * Makes `target` the server's answer in place (keys the answer lacks are removed) and returns it.
 * A frozen target (e.g. a deep-frozen informer object) cannot change: the answer is returned instead.
 */
export function writeBack<T extends object>(target: object, answer: T): T {
  if ((target as unknown) === answer || Object.isFrozen(target)) return answer;
  const t = target as Record<string, unknown>;
  for (const key of Object.keys(t)) if (!(key in answer)) delete t[key];
  Object.assign(t, answer);
  return t as T;
}

/** Whether a client argument is a whole object (to write back into) rather than a bare ObjectKey. */
export function isObject(obj: object): boolean {
  return "metadata" in obj || "apiVersion" in obj || "kind" in obj;
}
