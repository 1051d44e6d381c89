/**
 * Writes the generated pages before `vitepress build` (make docs): the marker and command references,
 * the dashboards and benchmarks sections the operations pages include, and the @kbts/runtime API from
 * its TSDoc (TypeDoc with typedoc-plugin-markdown: the TSDoc of ~700 exports needs TypeScript's own
 * reading of the types, re-exports and overloads, which a small generator would redo badly).
 * None of them is committed (.gitignore), so none can drift from the code.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { benchSection } from "./bench.js";
import { cliPage } from "./cli.js";
import { dashboardsSection } from "./dashboards.js";
import { markersPage } from "./markers.js";
import { DOCS, REPO } from "./paths.js";

/** The generated files, relative to docs/ (all gitignored). */
export const GENERATED = {
  markers: "reference/markers.md",
  cli: "reference/cli.md",
  dashboards: "parts/dashboards.md",
  bench: "parts/bench.md",
  runtime: "reference/runtime",
};

function write(rel: string, text: string): void {
  const file = join(DOCS, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

export function generate(options: { runtimeApi?: boolean } = {}): void {
  write(GENERATED.markers, markersPage());
  write(GENERATED.cli, cliPage());
  write(GENERATED.dashboards, dashboardsSection());
  write(GENERATED.bench, benchSection());
  if (options.runtimeApi !== false) {
    rmSync(join(DOCS, GENERATED.runtime), { recursive: true, force: true });
    execFileSync(
      process.execPath,
      [join(REPO, "node_modules/typedoc/bin/typedoc"), "--options", join(DOCS, "gen/typedoc.json")],
      { cwd: REPO, stdio: "inherit" },
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) generate();
