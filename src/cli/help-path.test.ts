/**
 * What `kbts --help` loads (issue 32): the command definitions and commander, nothing a command needs
 * only when it runs (ts-morph, TypeScript, YAML, handlebars, esbuild, the runtime, the commands' own
 * modules). Each definition imports its implementation with `await import()` inside its action; a
 * static import of one would be bundled into dist/cli.cjs and loaded by every `kbts` start.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { bundleCli, cliBundleIsCurrent } from "../packaging/cli-bundle.js";

const ROOT = join(import.meta.dirname, "..", "..");
const KBTS = join(ROOT, "bin", "kbts.js");

/** The modules of src/ outside src/cli/ that the definitions may import statically: small, no packages. */
const BASE_MODULES = ["src/manifests/defaults.ts", "src/process.ts", "src/version.ts"];

describe("kbts --help", () => {
  it("bundles only the command definitions, commander and three small modules of src/", async () => {
    const inputs = await bundleCli(ROOT, { source: true });
    const packages = new Set(
      inputs.flatMap((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f)?.[1] ?? []),
    );
    expect([...packages]).toEqual(["commander"]);
    const own = inputs.filter((f) => f.startsWith("src/"));
    expect(own.filter((f) => !f.startsWith("src/cli/"))).toEqual(BASE_MODULES);
    expect(
      own.filter((f) => f.startsWith("src/cli/") && !/^src\/cli\/(commands\/)?[\w-]+\.ts$/.test(f)),
    ).toEqual([]);
    expect(own).toContain("src/cli/commands/init.ts");
  });

  // Every module a `node bin/kbts.js --help` loads: CommonJS ones from require.cache, ES modules
  // through a load hook (which sees every import, dynamic ones too).
  const dir = mkdtempSync(join(tmpdir(), "kbts-help-path-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("loads the bundle alone, or, when the bundle is stale, the definitions' modules alone", async () => {
    const log = join(dir, "loaded.txt");
    const builtins = join(dir, "builtins.txt");
    writeFileSync(log, "");
    writeFileSync(
      join(dir, "hooks.mjs"),
      `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  if (url.startsWith("file:")) appendFileSync(${JSON.stringify(log)}, url + "\\n");
  return next(url, context);
}
`,
    );
    writeFileSync(
      join(dir, "register.mjs"),
      `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(dir, "hooks.mjs")).href)});\n`,
    );
    writeFileSync(
      join(dir, "require-cache.cjs"),
      `process.on("exit", () => {
  const fs = require("node:fs");
  fs.appendFileSync(${JSON.stringify(log)}, Object.keys(require.cache).map((f) => require("node:url").pathToFileURL(f).href + "\\n").join(""));
  fs.writeFileSync(${JSON.stringify(builtins)}, process.moduleLoadList.join("\\n"));
});\n`,
    );
    const help = await execa(
      process.execPath,
      [
        "--import",
        pathToFileURL(join(dir, "register.mjs")).href,
        "-r",
        join(dir, "require-cache.cjs"),
        KBTS,
        "--help",
      ],
      { cwd: dir },
    );
    expect(help.stdout).toContain("Usage: kbts [options] [command]");

    const loaded = [
      ...new Set(
        readFileSync(log, "utf8")
          .split("\n")
          .filter((u) => u.startsWith("file:"))
          .map((u) => relative(ROOT, new URL(u).pathname))
          .filter((f) => !f.startsWith("..")),
      ),
    ].sort();
    if (cliBundleIsCurrent(ROOT)) {
      expect(loaded).toEqual(["bin/kbts.js", "dist/cli.cjs"]);
      // commander's node:child_process is required on first use (cli-bundle.ts), not at load.
      expect(readFileSync(builtins, "utf8").split("\n")).not.toContain("NativeModule child_process");
      return;
    }
    // A `tsc -b` after the last `make build`: bin/kbts.js runs dist/cli/main.js and what it imports.
    const base = BASE_MODULES.map((f) => f.replace(/^src\//, "dist/").replace(/\.ts$/, ".js"));
    expect(
      loaded.filter(
        (f) =>
          f !== "bin/kbts.js" &&
          !base.includes(f) &&
          !/^dist\/cli\/(commands\/)?[\w-]+\.js$/.test(f) &&
          !f.startsWith("node_modules/commander/"),
      ),
    ).toEqual([]);
  });
});
