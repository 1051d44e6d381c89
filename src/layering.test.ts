/**
 * The generators' floors: loading (program, minimal lib, API packages and their markers) sits below
 * markers' definitions, schema and the generators; only the CLI command, the orchestrator itself and
 * the scaffold's conversion stubs (which read the project's CRDs through the orchestrator's entry,
 * generate.ts) reach into manifests/; and no module imports itself round a circle.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findCycle, importGraph } from "./internal/import-graph.js";

const graph = importGraph(fileURLToPath(new URL(".", import.meta.url)));
const importsOf = (from: (m: string) => boolean, to: (m: string) => boolean) =>
  [...graph]
    .filter(([m]) => from(m))
    .flatMap(([m, targets]) => targets.filter(to).map((t) => `${m} -> ${t}`));

describe("the generators' import graph", () => {
  it("covers the generators", () => expect(graph.get("crd/build.ts")).toContain("loading/packages.ts"));

  it("has no cycle", () => expect(findCycle(graph)).toBeUndefined());

  it("has nothing but the CLI command (and the conversion stubs' read of the CRDs) import manifests/", () =>
    expect(
      importsOf(
        (m) => !m.startsWith("manifests/") && m !== "cli/commands/manifests.ts",
        (t) => t.startsWith("manifests/"),
      ).filter((edge) => edge !== "plugins/typescript/conversion-stubs.ts -> manifests/generate.ts"),
    ).toEqual([]));

  it("loads below markers' definitions, schema and the generators", () =>
    expect(
      importsOf(
        (m) => m.startsWith("loading/"),
        (t) =>
          /^(markers\/defs|schema|crd|rbac|webhook|kinds|manifests|plugins|cli)\//.test(t) ||
          t === "registry.ts",
      ),
    ).toEqual([]));
});
