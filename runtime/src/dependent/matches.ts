/**
 * The "is a write needed?" test of dependent resources: does the object in the cache already hold
 * every value the desired object sets? (Java Operator SDK's SSA-based matcher answers the same
 * question from managedFields; the cache drops managedFields, so this compares values instead.)
 *
 * Only the fields the desired object sets are compared, because the API server adds the rest:
 * defaults (a Deployment's strategy, a container's terminationMessagePath), metadata (uid,
 * resourceVersion), and fields of other field managers (a label, an annotation, a ConfigMap key).
 *
 * - Objects: every member desired sets must match; members it leaves out are not looked at.
 *   `undefined` members are not sent (JSON), so they match anything; `null` asks for absence.
 * - Lists of objects: the desired elements must appear in the cached list in the same order, each
 *   matching (as a subset) an element of its own. That covers list-map merges (containers, env,
 *   ports keyed by name: another manager's elements sit between ours) and defaults inside elements.
 *   The price: an atomic list of objects that someone else lengthened still matches; the apply that
 *   would take it back is skipped until one of our own elements differs.
 * - Lists of scalars (args, command, finalizers we set) must be equal: order and length matter.
 * - Scalars must be equal as JSON values. The API server canonicalises some values (quantities:
 *   "0.5" becomes "500m"); write those in canonical form, or every reconcile applies again.
 */

/** Whether `actual` holds every value `desired` sets (see the module comment). */
export function matchesDesired(desired: unknown, actual: unknown): boolean {
  if (desired === undefined) return true;
  if (desired === null) return actual === undefined || actual === null;
  if (Array.isArray(desired)) {
    if (!Array.isArray(actual)) return false;
    return desired.every(isPlainObject) && desired.length > 0
      ? orderedSubsetMatch(desired, actual)
      : desired.length === actual.length && desired.every((d, i) => matchesDesired(d, actual[i]));
  }
  if (isPlainObject(desired)) {
    if (!isPlainObject(actual)) return false;
    for (const [key, value] of Object.entries(desired)) {
      if (!matchesDesired(value, actual[key])) return false;
    }
    return true;
  }
  return desired === actual;
}

/** Each desired element matches a distinct actual element, in order (a greedy subsequence match). */
function orderedSubsetMatch(desired: unknown[], actual: unknown[]): boolean {
  let at = 0;
  for (const d of desired) {
    while (at < actual.length && !matchesDesired(d, actual[at])) at++;
    if (at === actual.length) return false;
    at++;
  }
  return true;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
