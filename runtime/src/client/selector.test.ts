import { describe, expect, it } from "vitest";
import {
  matchesLabels,
  parseFieldSelector,
  parseSelector,
  parseSelectorString,
  selectorToString,
} from "./selector.js";

describe("parseSelectorString", () => {
  it("parses every operator of the API server's syntax", () => {
    expect(parseSelectorString("a=1, b==2,c!=3,d in (x, y),e notin (z),f,!g,h>4,i<5")).toEqual([
      { key: "a", operator: "=", values: ["1"] },
      { key: "b", operator: "=", values: ["2"] },
      { key: "c", operator: "!=", values: ["3"] },
      { key: "d", operator: "in", values: ["x", "y"] },
      { key: "e", operator: "notin", values: ["z"] },
      { key: "f", operator: "exists", values: [] },
      { key: "g", operator: "!", values: [] },
      { key: "h", operator: "gt", values: ["4"] },
      { key: "i", operator: "lt", values: ["5"] },
    ]);
  });

  it("accepts prefixed keys and empty values", () => {
    expect(parseSelectorString("app.kubernetes.io/name=web,tier=")).toEqual([
      { key: "app.kubernetes.io/name", operator: "=", values: ["web"] },
      { key: "tier", operator: "=", values: [""] },
    ]);
  });

  it("is empty for an empty string", () => {
    expect(parseSelectorString("  ")).toEqual([]);
  });

  it("reports malformed selectors with the column", () => {
    expect(() => parseSelectorString("a in x")).toThrow(/column 6: expected "\(" after "in"/);
    expect(() => parseSelectorString("a=1 b=2")).toThrow(/expected "," between requirements/);
    expect(() => parseSelectorString("a>x")).toThrow(/needs an integer/);
    expect(() => parseSelectorString("-bad=1")).toThrow(/not a valid label key/);
    expect(() => parseSelectorString("a=b c")).toThrow(/invalid label selector/);
    expect(() => parseSelectorString("a in (x")).toThrow(/expected "," or "\)"/);
  });
});

describe("parseSelector", () => {
  it("takes a label map (all must match)", () => {
    const s = parseSelector({ tier: "web", app: "shop" });
    expect(selectorToString(s)).toBe("app=shop,tier=web");
  });

  it("takes a metav1.LabelSelector", () => {
    const s = parseSelector({
      matchLabels: { app: "shop" },
      matchExpressions: [
        { key: "env", operator: "In", values: ["prod", "staging"] },
        { key: "canary", operator: "DoesNotExist" },
      ],
    });
    expect(selectorToString(s)).toBe("app=shop,!canary,env in (prod,staging)");
  });

  it("rejects LabelSelector expressions the API server rejects", () => {
    expect(() => parseSelector({ matchExpressions: [{ key: "a", operator: "In", values: [] }] })).toThrow(
      /needs at least one value/,
    );
    expect(() =>
      parseSelector({ matchExpressions: [{ key: "a", operator: "Exists", values: ["x"] }] }),
    ).toThrow(/takes no values/);
  });

  it("round-trips through the string form", () => {
    const text = "a=1,b!=2,c in (x,y),d notin (z),e,!f,g>1,h<9";
    expect(parseSelectorString(selectorToString({ requirements: parseSelectorString(text) }))).toEqual(
      parseSelectorString(text),
    );
  });
});

describe("matching", () => {
  const labels = { app: "shop", tier: "web", replicas: "3" };
  it.each([
    ["app=shop", true],
    ["app=other", false],
    ["app!=other", true],
    ["missing!=x", true],
    ["tier in (web,db)", true],
    ["tier notin (web)", false],
    ["missing notin (web)", true],
    ["app", true],
    ["missing", false],
    ["!missing", true],
    ["!app", false],
    ["replicas>2", true],
    ["replicas<3", false],
    ["app>1", false],
    ["app=shop,tier=db", false],
    ["", true],
  ])("%s → %s", (sel, want) => {
    expect(matchesLabels(sel, labels)).toBe(want);
  });

  it("matches objects without labels only against negative requirements", () => {
    expect(matchesLabels("!a", undefined)).toBe(true);
    expect(matchesLabels({ a: "b" }, undefined)).toBe(false);
    expect(matchesLabels({}, undefined)).toBe(true);
  });

  it("matches a LabelSelector", () => {
    expect(
      matchesLabels(
        {
          matchLabels: { app: "shop" },
          matchExpressions: [{ key: "tier", operator: "In", values: ["web"] }],
        },
        labels,
      ),
    ).toBe(true);
    expect(
      matchesLabels({ matchExpressions: [{ key: "tier", operator: "NotIn", values: ["web"] }] }, labels),
    ).toBe(false);
  });
});

describe("parseFieldSelector", () => {
  it("accepts exact matches only", () => {
    expect(parseFieldSelector("spec.nodeName=n1, status.phase==Running")).toEqual({
      "spec.nodeName": "n1",
      "status.phase": "Running",
    });
    expect(() => parseFieldSelector("spec.nodeName!=n1")).toThrow(/not an exact match/);
  });
});
