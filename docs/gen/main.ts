/**
 * Writes the generated pages before `vitepress build` (make docs): the marker and command references,
 * the dashboards and benchmarks sections the operations pages include, and the @kbts/runtime API from
 * its TSDoc (TypeDoc with typedoc-plugin-markdown: the TSDoc of ~700 exports needs TypeScript's own
 * reading of the types, re-exports and overloads, which a small generator would redo badly).
 * None of them is committed (.gitignore), so none can drift from the code.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
    nameRuntimeModules(join(DOCS, GENERATED.runtime));
  }
}

/**
 * TypeDoc names each entry point after its file (index, envtest, ...): the pages say the import path
 * a reader writes instead (`@kbts/runtime`, `@kbts/runtime/envtest`), and the main module comes first.
 */
function nameRuntimeModules(dir: string): void {
  const importPath = (module: string) => (module === "index" ? "@kbts/runtime" : `@kbts/runtime/${module}`);
  for (const file of readdirSync(dir)) {
    if (file === "index.md" || !file.endsWith(".md")) continue;
    const path = join(dir, file);
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace(/^# (\w+)\n/, (_, m: string) => `# ${importPath(m)}\n`),
    );
  }
  const index = join(dir, "index.md");
  const links = [...readFileSync(index, "utf8").matchAll(/^- \[(\w+)\]\(([^)]+)\)$/gm)]
    .map(([, m, href]) => ({ name: importPath(m!), href: href! }))
    .sort((a, b) =>
      a.name === "@kbts/runtime" ? -1 : b.name === "@kbts/runtime" ? 1 : a.name < b.name ? -1 : 1,
    );
  writeFileSync(
    index,
    [
      "# @kbts/runtime API",
      "",
      "Generated from the TSDoc of every export (TypeDoc), one page per import path:",
      "",
      ...links.map((l) => `- [\`${l.name}\`](${l.href})`),
      "",
    ].join("\n"),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) generate();
