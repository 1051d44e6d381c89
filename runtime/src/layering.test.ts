/**
 * The runtime's floors: no module imports itself round a circle, and the test harness (envtest/)
 * is imported by nothing in production code; TLS lives in tls/ for both.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findCycle, importGraph } from "../../src/internal/import-graph.js";

const graph = importGraph(fileURLToPath(new URL(".", import.meta.url)));

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

  it("has nothing outside envtest/ importing envtest/", () => {
    const offenders = [...graph]
      .filter(([from]) => !from.startsWith("envtest/"))
      .flatMap(([from, to]) => to.filter((t) => t.startsWith("envtest/")).map((t) => `${from} -> ${t}`));
    expect(offenders).toEqual([]);
  });
});
