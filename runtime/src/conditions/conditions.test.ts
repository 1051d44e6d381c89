import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Condition } from "../api/meta.js";
import {
  findStatusCondition,
  isStatusConditionFalse,
  isStatusConditionPresentAndEqual,
  isStatusConditionTrue,
  removeStatusCondition,
  setStatusCondition,
} from "./index.js";

const T0 = "2026-01-01T00:00:00Z";
const T1 = "2026-02-02T00:00:00Z";

function ready(status: Condition["status"], extra: Partial<Condition> = {}): Condition {
  return { type: "Ready", status, reason: "Reconciled", message: "ok", lastTransitionTime: T0, ...extra };
}

describe("setStatusCondition", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-03-03T03:03:03.456Z"));
  });
  afterEach(() => vi.useRealTimers());

  it("returns false and does nothing for a missing list", () => {
    expect(setStatusCondition(undefined, ready("True"))).toBe(false);
  });

  it("appends a new type, defaulting lastTransitionTime to now at second precision in UTC", () => {
    const conds: Condition[] = [];
    const { lastTransitionTime: _, ...c } = ready("True");
    expect(setStatusCondition(conds, c)).toBe(true);
    expect(conds).toEqual([{ ...c, lastTransitionTime: "2026-03-03T03:03:03Z" }]);
  });

  it("keeps a given lastTransitionTime on a new condition", () => {
    const conds: Condition[] = [];
    expect(setStatusCondition(conds, ready("True", { lastTransitionTime: T1 }))).toBe(true);
    expect(conds[0]?.lastTransitionTime).toBe(T1);
  });

  it("moves lastTransitionTime to now on a status change when none is given", () => {
    const conds = [ready("True")];
    expect(
      setStatusCondition(conds, { type: "Ready", status: "False", reason: "Reconciled", message: "ok" }),
    ).toBe(true);
    expect(conds[0]).toMatchObject({ status: "False", lastTransitionTime: "2026-03-03T03:03:03Z" });
  });

  it("uses the given lastTransitionTime on a status change", () => {
    const conds = [ready("True")];
    setStatusCondition(conds, ready("Unknown", { lastTransitionTime: T1 }));
    expect(conds[0]?.lastTransitionTime).toBe(T1);
  });

  it("never touches lastTransitionTime when the status is unchanged, even if another time is given", () => {
    const conds = [ready("True")];
    expect(setStatusCondition(conds, ready("True", { lastTransitionTime: T1 }))).toBe(false);
    expect(conds[0]?.lastTransitionTime).toBe(T0);
  });

  it("updates reason, message and observedGeneration without moving the time, reporting a change", () => {
    const conds = [ready("True")];
    expect(setStatusCondition(conds, { ...ready("True"), reason: "Other" })).toBe(true);
    expect(setStatusCondition(conds, { ...ready("True"), reason: "Other", message: "changed" })).toBe(true);
    expect(
      setStatusCondition(conds, {
        ...ready("True"),
        reason: "Other",
        message: "changed",
        observedGeneration: 3,
      }),
    ).toBe(true);
    expect(conds).toEqual([{ ...ready("True"), reason: "Other", message: "changed", observedGeneration: 3 }]);
    expect(
      setStatusCondition(conds, {
        ...ready("True"),
        reason: "Other",
        message: "changed",
        observedGeneration: 3,
      }),
    ).toBe(false);
  });

  it("treats a missing observedGeneration as 0, like Go's omitempty int64", () => {
    const conds = [ready("True")];
    expect(setStatusCondition(conds, { ...ready("True"), observedGeneration: 0 })).toBe(false);
  });

  it("updates the first entry of the type in place, leaving other types alone", () => {
    const other = ready("False", { type: "Degraded" });
    const conds = [other, ready("True")];
    const target = conds[1];
    setStatusCondition(conds, ready("False"));
    expect(conds[1]).toBe(target);
    expect(conds[0]).toEqual(ready("False", { type: "Degraded" }));
  });
});

describe("removeStatusCondition", () => {
  it("removes every entry of the type and reports it", () => {
    const conds = [ready("True"), ready("False", { type: "Degraded" }), ready("False")];
    expect(removeStatusCondition(conds, "Ready")).toBe(true);
    expect(conds.map((c) => c.type)).toEqual(["Degraded"]);
    expect(removeStatusCondition(conds, "Ready")).toBe(false);
    expect(removeStatusCondition([], "Ready")).toBe(false);
    expect(removeStatusCondition(undefined, "Ready")).toBe(false);
  });
});

describe("find and is* helpers", () => {
  it("look at the first entry of the type only; absent is false", () => {
    const conds = [ready("True"), ready("False")];
    expect(findStatusCondition(conds, "Ready")).toBe(conds[0]);
    expect(findStatusCondition(conds, "Nope")).toBeUndefined();
    expect(findStatusCondition(undefined, "Ready")).toBeUndefined();
    expect(isStatusConditionTrue(conds, "Ready")).toBe(true);
    expect(isStatusConditionFalse(conds, "Ready")).toBe(false);
    expect(isStatusConditionPresentAndEqual(conds, "Ready", "True")).toBe(true);
    expect(isStatusConditionPresentAndEqual(conds, "Ready", "Unknown")).toBe(false);
    expect(isStatusConditionTrue(conds, "Nope")).toBe(false);
    expect(isStatusConditionFalse(conds, "Nope")).toBe(false);
    expect(isStatusConditionFalse(undefined, "Nope")).toBe(false);
  });
});
