/**
 * The runtime's floors: no module imports itself round a circle, no import climbs to a higher floor,
 * no two folders import each other, and the test harness (envtest/) is imported by nothing in
 * production code; TLS lives in tls/ for both.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findCycle, folderEdges, importGraph } from "../../src/internal/import-graph.js";

const graph = importGraph(fileURLToPath(new URL(".", import.meta.url)));

/**
 * The floors, lowest first. A module may import its own floor and the floors below (within a floor,
 * folders may depend one way only). A group is a folder ("metrics/server" is its own group, apart
 * from "metrics") or a file at the root.
 */
const FLOORS: string[][] = [
  ["api", "internal", "log", "runnable.ts"],
  ["metrics", "reconcile"],
  ["tls", "workqueue", "tracing"],
  ["client"],
  [
    "cache",
    "conditions",
    "controllerutil",
    "conversion",
    "events",
    "handler",
    "healthz",
    "leaderelection",
    "metrics/filters",
    "metrics/server",
    "migration",
    "predicate",
    "validation",
  ],
  ["webhook", "webhookcerts", "sharding"],
  ["manager"],
  ["controller"],
  ["builder"],
  ["dependent"],
  ["envtest", "fake"],
  ["index.ts"],
];

/** The group a module belongs to: the longest group that is its folder or names it. */
function groupOf(module: string): string {
  const groups = FLOORS.flat().filter((g) => module === g || module.startsWith(`${g}/`));
  return groups.sort((a, b) => b.length - a.length)[0] ?? module;
}

function floorOf(group: string): number {
  return FLOORS.findIndex((floor) => floor.includes(group));
}

describe("the runtime's import graph", () => {
  it("covers the runtime's modules", () => {
    expect(graph.get("index.ts")).toContain("manager/index.ts");
    expect(graph.get("manager/types.ts")).toContain("webhook/types.ts");
  });

  it("has no cycle", () => expect(findCycle(graph)).toBeUndefined());

  it("finds a cycle when there is one", () =>
    expect(
      findCycle(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", ["a.ts"]],
        ]),
      ),
    ).toEqual(["a.ts", "b.ts", "a.ts"]));

  it("puts every module on a floor", () => {
    expect([...graph.keys()].filter((m) => floorOf(groupOf(m)) < 0)).toEqual([]);
  });

  it("has no import climbing a floor", () => {
    const climbs = folderEdges(graph, groupOf).filter(([from, to]) => floorOf(to) > floorOf(from));
    expect(climbs.map(([from, to]) => `${from} -> ${to}`)).toEqual([]);
  });

  it("has no two folders importing each other", () => {
    const edges = folderEdges(graph, groupOf);
    const pairs = edges.filter(([from, to]) => from < to && edges.some(([f, t]) => f === to && t === from));
    expect(pairs.map(([a, b]) => `${a} <-> ${b}`)).toEqual([]);
  });

  it("finds a climb and a two-folder cycle when there are some", () => {
    const edges = folderEdges(
      new Map([
        ["api/kind.ts", ["manager/types.ts"]],
        ["manager/types.ts", ["api/kind.ts"]],
      ]),
      groupOf,
    );
    expect(edges).toEqual([
      ["api", "manager"],
      ["manager", "api"],
    ]);
    expect(edges.filter(([from, to]) => floorOf(to) > floorOf(from))).toEqual([["api", "manager"]]);
  });

  it("has nothing outside envtest/ importing envtest/", () => {
    const offenders = [...graph]
      .filter(([from]) => !from.startsWith("envtest/"))
      .flatMap(([from, to]) => to.filter((t) => t.startsWith("envtest/")).map((t) => `${from} -> ${t}`));
    expect(offenders).toEqual([]);
  });
});
