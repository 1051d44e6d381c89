/**
 * src's floors (ARCHITECTURE.md): each folder sits on a floor and imports only its own floor and the
 * ones below, never one above. Loading (program, minimal lib, API packages and their markers) sits
 * below the generators; only the CLI (the command and its cached fast path), the orchestrator, the
 * --breaking-since gate (breaking/), the kinds generator (it reads markers with the generators'
 * registry) and the scaffold's conversion stubs (which read the project's CRDs through the orchestrator's entry, generate.ts) reach into
 * manifests/; and no module imports itself round a circle.
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

  it("never imports up a floor", () => {
    const climbs = importsOf(
      () => true,
      () => true,
    ).filter((edge) => {
      const [from, to] = edge.split(" -> ") as [string, string];
      return floorOf(to) > floorOf(from);
    });
    expect(climbs.filter((edge) => !KNOWN_CLIMBS.includes(edge))).toEqual([]);
  });
});

/** Bottom up; a module's floor is that of the longest folder (or file) prefix that names it. */
const FLOORS: readonly (readonly string[])[] = [
  // ground: errors, comparison, the compiler handle, YAML, the process, shared internals
  ["errors.ts", "compare.ts", "version.ts", "internal/", "ts/", "yaml/", "cli/interrupt.ts", "process"],
  // the marker engine and program loading
  ["markers/", "loading/"],
  // the generators and the stand-alone tools
  ["crd/", "rbac/", "webhook/", "schema/", "lint/", "packaging/", "envtest/"],
  // the orchestrators: every generator's markers, manifests, kinds, the breaking-change gate, storage
  ["registry.ts", "manifests/", "kinds/", "breaking/", "storage/"],
  // the scaffold engine, the project model, plugins
  ["scaffold/", "project/", "plugins/"],
  // the commands
  ["commands/"],
  // the CLI front end
  ["cli/"],
];

function floorOf(module: string): number {
  let best = { floor: -1, length: -1 };
  FLOORS.forEach((prefixes, floor) => {
    for (const p of prefixes)
      if (module.startsWith(p) && p.length > best.length) best = { floor, length: p.length };
  });
  if (best.floor < 0) throw new Error(`${module} is on no floor: add its folder to FLOORS`);
  return best.floor;
}

/**
 * Climbs still to remove, each named: the staged tree and its atomic commit (scaffold/fs.ts) and the
 * formatter (scaffold/format.ts) are primitives below the generators that live in the scaffold's folder; the manifests fast path and --check-rbac's use of every
 * generator's markers move with issue 27's other changes (fast-path.ts to cli/, the registry into
 * manifests/ and passed to checkRbac).
 */
const KNOWN_CLIMBS = [
  "kinds/from-crd.ts -> scaffold/format.ts",
  "kinds/from-crd.ts -> scaffold/fs.ts",
  "kinds/generate.ts -> scaffold/fs.ts",
  "manifests/write.ts -> scaffold/fs.ts",
  "manifests/fast-path.ts -> cli/interrupt.ts",
  "rbac/check.ts -> registry.ts",
];
