import type { Condition, ConditionStatus } from "../api/meta.js";

/** The condition setStatusCondition takes: lastTransitionTime may be left out (it then defaults to now). */
export type ConditionInput = Omit<Condition, "lastTransitionTime"> & { lastTransitionTime?: string };

/** metav1.Time's wire form: RFC 3339, UTC, second precision. */
export function nowTime(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, "Z");
}

/**
 * apimachinery's meta.SetStatusCondition: adds or updates the condition of `c.type` in place and says
 * whether anything changed. lastTransitionTime moves only when the status changes (to the given time,
 * or now); reason, message and observedGeneration are updated without touching it.
 */
export function setStatusCondition(conditions: Condition[] | undefined | null, c: ConditionInput): boolean {
  if (!conditions) return false;
  const existing = findStatusCondition(conditions, c.type);
  if (!existing) {
    const added: Condition = { ...c, lastTransitionTime: c.lastTransitionTime || nowTime() };
    conditions.push(added);
    return true;
  }
  let changed = false;
  if (existing.status !== c.status) {
    existing.status = c.status;
    existing.lastTransitionTime = c.lastTransitionTime || nowTime();
    changed = true;
  }
  if (existing.reason !== c.reason) {
    existing.reason = c.reason;
    changed = true;
  }
  if (existing.message !== c.message) {
    existing.message = c.message;
    changed = true;
  }
  // int64 with omitempty in Go: absent and 0 are the same value.
  if ((existing.observedGeneration ?? 0) !== (c.observedGeneration ?? 0)) {
    if (c.observedGeneration === undefined) delete existing.observedGeneration;
    else existing.observedGeneration = c.observedGeneration;
    changed = true;
  }
  return changed;
}

/** Removes every condition of that type in place; true when something was removed. */
export function removeStatusCondition(conditions: Condition[] | undefined | null, type: string): boolean {
  if (!conditions || conditions.length === 0) return false;
  const before = conditions.length;
  let kept = 0;
  for (const c of conditions) if (c.type !== type) conditions[kept++] = c;
  conditions.length = kept;
  return kept !== before;
}

/** The first condition of that type (the array's own element, so edits stick), or undefined. */
export function findStatusCondition(
  conditions: readonly Condition[] | undefined | null,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isStatusConditionTrue(
  conditions: readonly Condition[] | undefined | null,
  type: string,
): boolean {
  return isStatusConditionPresentAndEqual(conditions, type, "True");
}

export function isStatusConditionFalse(
  conditions: readonly Condition[] | undefined | null,
  type: string,
): boolean {
  return isStatusConditionPresentAndEqual(conditions, type, "False");
}

/** The first condition of that type decides; absent means false. */
export function isStatusConditionPresentAndEqual(
  conditions: readonly Condition[] | undefined | null,
  type: string,
  status: ConditionStatus,
): boolean {
  return findStatusCondition(conditions, type)?.status === status;
}
