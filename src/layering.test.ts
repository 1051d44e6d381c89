/**
 * The generators' floors: loading (program, minimal lib, API packages and their markers) sits below
 * markers' definitions, schema and the generators; only the CLI (the command and its cached fast path),
 * the orchestrator itself, the --breaking-since gate above it (breaking/), the scaffold's conversion
 * stubs (which read the project's CRDs through the orchestrator's entry, generate.ts) and the kinds
 * generator (which reads markers with the generator list's registry) reach into manifests/; and no
 * module imports itself round a circle. (manifests/defaults.ts, the flag defaults, is a leaf anyone may read.)
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findCycle, importGraph } from "../testdata/imports/graph.js";

const graph = importGraph(fileURLToPath(new URL(".", import.meta.url)));
const importsOf = (from: (m: string) => boolean, to: (m: string) => boolean) =>
  [...graph]
    .filter(([m]) => from(m))
    .flatMap(([m, targets]) => targets.filter(to).map((t) => `${m} -> ${t}`));

describe("the generators' import graph", () => {
  it("covers the generators", () => expect(graph.get("crd/build.ts")).toContain("loading/packages.ts"));

  it("has no cycle", () => expect(findCycle(graph)).toBeUndefined());

  it("has nothing but the CLI and the breaking gate (and the conversion stubs' read of the CRDs) import manifests/", () =>
    expect(
      importsOf(
        (m) =>
          !/^(manifests|breaking)\//.test(m) && m !== "cli/commands/manifests.ts" && m !== "cli/fast-path.ts",
        (t) => t.startsWith("manifests/") && t !== "manifests/defaults.ts",
      ).filter(
        (edge) =>
          edge !== "plugins/typescript/conversion-stubs.ts -> manifests/generate.ts" &&
          edge !== "kinds/generate.ts -> manifests/generators.ts",
      ),
    ).toEqual([]));

  it("keeps manifests/ below the breaking gate", () =>
    expect(
      importsOf(
        (m) => m.startsWith("manifests/"),
        (t) => t.startsWith("breaking/") && t !== "breaking/markers.ts",
      ),
    ).toEqual([]));

  it("loads below markers' definitions, schema and the generators", () =>
    expect(
      importsOf(
        (m) => m.startsWith("loading/"),
        (t) => /^(markers\/defs|schema|crd|rbac|webhook|kinds|manifests|breaking|plugins|cli)\//.test(t),
      ),
    ).toEqual([]));
});
