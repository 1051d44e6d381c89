import { describe, expect, it } from "vitest";
import type { KubernetesObject } from "../api/meta.js";
import {
  and,
  annotationChangedPredicate,
  evaluatePredicates,
  generationChangedPredicate,
  labelChangedPredicate,
  labelSelectorPredicate,
  newPredicateFuncs,
  not,
  or,
  type Predicate,
  resourceVersionChangedPredicate,
} from "./predicate.js";

const o = (meta: NonNullable<KubernetesObject["metadata"]>): KubernetesObject => ({
  metadata: { name: "x", ...meta },
});

function verdicts(p: Predicate, oldObj: KubernetesObject, newObj: KubernetesObject) {
  return {
    create: evaluatePredicates([p], "create", { object: newObj, isInInitialList: false }),
    update: evaluatePredicates([p], "update", { objectOld: oldObj, objectNew: newObj }),
    delete: evaluatePredicates([p], "delete", { object: newObj, deleteStateUnknown: false }),
    generic: evaluatePredicates([p], "generic", { object: newObj }),
  };
}

describe("change predicates filter updates only", () => {
  it("generationChanged drops status-only updates; create/delete/generic pass", () => {
    const p = generationChangedPredicate();
    expect(
      verdicts(p, o({ generation: 1, resourceVersion: "1" }), o({ generation: 1, resourceVersion: "2" })),
    ).toEqual({
      create: true,
      update: false,
      delete: true,
      generic: true,
    });
    expect(verdicts(p, o({ generation: 1 }), o({ generation: 2 })).update).toBe(true);
  });

  it("resourceVersionChanged drops resyncs", () => {
    const p = resourceVersionChangedPredicate();
    expect(verdicts(p, o({ resourceVersion: "5" }), o({ resourceVersion: "5" })).update).toBe(false);
    expect(verdicts(p, o({ resourceVersion: "5" }), o({ resourceVersion: "6" })).update).toBe(true);
    expect(verdicts(p, o({ resourceVersion: "5" }), o({ resourceVersion: "5" })).create).toBe(true);
  });

  it("labelChanged / annotationChanged compare maps; absent equals empty", () => {
    expect(verdicts(labelChangedPredicate(), o({}), o({ labels: {} })).update).toBe(false);
    expect(
      verdicts(labelChangedPredicate(), o({ labels: { a: "1" } }), o({ labels: { a: "2" } })).update,
    ).toBe(true);
    expect(
      verdicts(labelChangedPredicate(), o({ labels: { a: "1" } }), o({ labels: { b: "1" } })).update,
    ).toBe(true);
    expect(
      verdicts(annotationChangedPredicate(), o({ annotations: { a: "1" } }), o({ annotations: { a: "1" } }))
        .update,
    ).toBe(false);
    expect(verdicts(annotationChangedPredicate(), o({}), o({ annotations: { a: "1" } })).update).toBe(true);
    expect(verdicts(annotationChangedPredicate(), o({}), o({})).delete).toBe(true);
  });
});

describe("labelSelectorPredicate", () => {
  it("applies to all four events, using the new object on update", () => {
    const p = labelSelectorPredicate({
      matchLabels: { app: "web" },
      matchExpressions: [
        { key: "tier", operator: "In", values: ["front", "edge"] },
        { key: "legacy", operator: "DoesNotExist" },
      ],
    });
    const match = o({ labels: { app: "web", tier: "edge" } });
    const miss = o({ labels: { app: "web", tier: "edge", legacy: "y" } });
    expect(verdicts(p, miss, match)).toEqual({ create: true, update: true, delete: true, generic: true });
    expect(verdicts(p, match, miss)).toEqual({ create: false, update: false, delete: false, generic: false });
  });

  it("rejects invalid selectors with the offending expression", () => {
    expect(() =>
      labelSelectorPredicate({ matchExpressions: [{ key: "a", operator: "In", values: [] }] }),
    ).toThrow(/operator In on "a" needs at least one value/);
    expect(() =>
      labelSelectorPredicate({ matchExpressions: [{ key: "a", operator: "Exists", values: ["x"] }] }),
    ).toThrow(/takes no values/);
  });
});

describe("and / or / not / newPredicateFuncs", () => {
  const yes = newPredicateFuncs(() => true);
  const no = newPredicateFuncs(() => false);
  const ev = { object: o({}) };
  it("compose with controller-runtime's empty cases", () => {
    expect(evaluatePredicates([and()], "generic", ev)).toBe(true);
    expect(evaluatePredicates([or()], "generic", ev)).toBe(false);
    expect(evaluatePredicates([and(yes, no)], "generic", ev)).toBe(false);
    expect(evaluatePredicates([or(no, yes)], "generic", ev)).toBe(true);
    expect(evaluatePredicates([not(no)], "generic", ev)).toBe(true);
    // not() of a change predicate blocks the events the change predicate lets through.
    expect(
      evaluatePredicates([not(generationChangedPredicate())], "create", {
        object: o({}),
        isInInitialList: false,
      }),
    ).toBe(false);
  });

  it("short-circuits and evaluates in order", () => {
    const calls: string[] = [];
    const spy = (name: string, v: boolean): Predicate => ({
      generic: () => {
        calls.push(name);
        return v;
      },
    });
    evaluatePredicates([spy("a", true), spy("b", false), spy("c", true)], "generic", ev);
    expect(calls).toEqual(["a", "b"]);
  });

  it("newPredicateFuncs judges updates on the new object", () => {
    const p = newPredicateFuncs((x) => x.metadata?.name === "new");
    expect(
      evaluatePredicates([p], "update", { objectOld: o({ name: "old" }), objectNew: o({ name: "new" }) }),
    ).toBe(true);
  });
});
