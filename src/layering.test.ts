/**
 * src's floors (ARCHITECTURE.md): each folder sits on a floor and imports only its own floor and the
 * ones below, never one above. Loading (program, minimal lib, API packages and their markers) sits
 * below the generators; only the CLI (the command and its cached fast path), the orchestrator, the
 * --breaking-since gate (breaking/), the kinds generator (it reads markers with the generators'
 * registry) and the scaffold's conversion stubs (which read the project's CRDs through the orchestrator's entry, generate.ts) reach into
 * manifests/; and no module imports itself round a circle.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
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
    expect(climbs).toEqual([]);
  });
});

/** Bottom up; a module's floor is that of the longest folder (or file) prefix that names it. */
const FLOORS: readonly (readonly string[])[] = [
  // ground: errors, comparison, the process, the compiler handle, YAML, staged files and their formatter
  [
    "errors.ts",
    "compare.ts",
    "version.ts",
    "process.ts",
    "cache-dir.ts",
    "internal/",
    "ts/",
    "yaml/",
    "files/",
  ],
  // the marker engine and program loading
  ["markers/", "loading/"],
  // the generators and the stand-alone tools
  ["crd/", "rbac/", "webhook/", "schema/", "lint/", "packaging/", "envtest/"],
  // the orchestrators: every generator's markers, manifests, kinds, the breaking-change gate, storage
  ["manifests/", "kinds/", "breaking/", "storage/"],
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

describe("the README's repository layout", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const layout = readme.split("## Repository layout")[1]?.split("```")[1] ?? "";
  const [cli = "", runtime = ""] = layout.split(/^runtime\//m);
  const folders = (dir: string) =>
    readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  /** The names no line of `block` starts with, as `<indent><name>/` (sub-folders are indented by 2). */
  const unlisted = (block: string, names: string[], indent = "  ") => {
    const lines = block.split("\n");
    return names.filter((name) => !lines.some((line) => line.startsWith(`${indent}${name}/`)));
  };

  it("names every folder at the top of the repository that git tracks", () => {
    const tracked = execFileSync("git", ["ls-files"], { cwd: fileURLToPath(new URL("..", import.meta.url)) })
      .toString()
      .split("\n");
    const top = [...new Set(tracked.filter((f) => f.includes("/")).map((f) => f.slice(0, f.indexOf("/"))))];
    expect(top.length).toBeGreaterThan(5);
    expect(unlisted(layout, top, "")).toEqual([]);
  });
  it("names every folder of src/", () => expect(unlisted(cli, folders("."))).toEqual([]));
  it("names every folder of runtime/src/", () =>
    expect(unlisted(runtime, folders("../runtime/src/"))).toEqual([]));
});
