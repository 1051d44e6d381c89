import { describe, expect, it } from "vitest";
import { matchesDesired } from "./matches.js";

describe("matchesDesired", () => {
  it("compares only the fields desired sets: defaults and other managers' fields do not matter", () => {
    const desired = { metadata: { name: "a", labels: { app: "x" } }, spec: { replicas: 2 } };
    const actual = {
      metadata: { name: "a", uid: "u", resourceVersion: "7", labels: { app: "x", team: "theirs" } },
      spec: { replicas: 2, strategy: { type: "RollingUpdate" } },
    };
    expect(matchesDesired(desired, actual)).toBe(true);
  });

  it("a changed or missing value it sets is a mismatch", () => {
    expect(matchesDesired({ spec: { replicas: 2 } }, { spec: { replicas: 3 } })).toBe(false);
    expect(matchesDesired({ spec: { replicas: 2 } }, { spec: {} })).toBe(false);
    expect(matchesDesired({ data: { a: "1" } }, {})).toBe(false);
    expect(matchesDesired({ spec: { x: { y: 1 } } }, { spec: { x: "y" } })).toBe(false);
  });

  it("lists of objects: desired elements in order, each a subset of its own element", () => {
    const desired = {
      containers: [
        { name: "web", image: "i:1" },
        { name: "side", image: "s:1" },
      ],
    };
    const withDefaults = {
      containers: [
        { name: "web", image: "i:1", terminationMessagePath: "/dev/termination-log" },
        { name: "injected", image: "mesh" },
        { name: "side", image: "s:1", imagePullPolicy: "IfNotPresent" },
      ],
    };
    expect(matchesDesired(desired, withDefaults)).toBe(true);
    const reordered = { containers: [withDefaults.containers[2], withDefaults.containers[0]] };
    expect(matchesDesired(desired, reordered)).toBe(false);
    const changed = {
      containers: [
        { name: "web", image: "i:2" },
        { name: "side", image: "s:1" },
      ],
    };
    expect(matchesDesired(desired, changed)).toBe(false);
    expect(matchesDesired(desired, { containers: [{ name: "web", image: "i:1" }] })).toBe(false);
  });

  it("lists of scalars must be equal, order and length included", () => {
    expect(matchesDesired({ args: ["a", "b"] }, { args: ["a", "b"] })).toBe(true);
    expect(matchesDesired({ args: ["a", "b"] }, { args: ["b", "a"] })).toBe(false);
    expect(matchesDesired({ args: ["a"] }, { args: ["a", "b"] })).toBe(false);
    expect(matchesDesired({ args: [] }, { args: ["a"] })).toBe(false);
    expect(matchesDesired({ args: [] }, { args: [] })).toBe(true);
  });

  it("undefined matches anything (it is not sent); null asks for absence", () => {
    expect(matchesDesired({ a: undefined, b: 1 }, { b: 1, a: "x" })).toBe(true);
    expect(matchesDesired({ a: null }, {})).toBe(true);
    expect(matchesDesired({ a: null }, { a: "x" })).toBe(false);
  });
});
