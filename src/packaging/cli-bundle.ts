/**
 * dist/cli.cjs: the CLI's declaration layer (src/cli's command definitions, completion and commander) in
 * one CommonJS file, so `kbts --help` reads one file and never starts Node's ES module loader. Every
 * command's implementation stays a separate module of dist/, loaded by the action's dynamic import().
 * bin/kbts.js falls back to dist/cli/main.js (the same code, unbundled) when the bundle is missing or
 * older than tsc's last build.
 *
 * Run after `tsc -b` (make build does): `node dist/packaging/cli-bundle.js`.
 */
import { existsSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "esbuild";

/** The bundle, relative to the package root; at dist/'s top so version.ts finds ../package.json. */
export const CLI_BUNDLE = "dist/cli.cjs";
/** Written by every `tsc -b` that emits (tsconfig.json's tsBuildInfoFile). */
const TSBUILDINFO = "dist/.tsbuildinfo";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Whether root's bundle is as new as its compiled modules. An installed kbts has no src/: its bundle
 * and modules come from one build, and npm does not keep their times.
 */
export function cliBundleIsCurrent(root: string): boolean {
  try {
    const built = statSync(join(root, CLI_BUNDLE)).mtimeMs;
    if (!existsSync(join(root, "src"))) return true;
    return built >= statSync(join(root, TSBUILDINFO)).mtimeMs;
  } catch {
    return false;
  }
}

/**
 * Static imports are bundled; dynamic import()s stay imports of the modules beside the bundle (their
 * paths rewritten from the importer's folder to the bundle's); commander's node:child_process loads on
 * first use. errors.ts may not be bundled: the
 * implementations throw its KbtsError, and a second copy of the class would fail `instanceof`.
 */
function declarationsOnly(outdir: string): Plugin {
  return {
    name: "kbts-declarations-only",
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "dynamic-import") {
          if (!args.path.startsWith(".")) return { path: args.path, external: true };
          const target = resolve(args.resolveDir, args.path);
          const path = relative(outdir, target);
          return { path: path.startsWith(".") ? path : `./${path}`, external: true };
        }
        // commander requires node:child_process when it loads, for executable subcommands, which kbts
        // has none of; the module (with net, dgram and streams) would be ~2 ms of every start.
        if (args.path === "node:child_process" && args.importer.includes(`${sep}commander${sep}`)) {
          return { path: "node:child_process", namespace: "kbts-on-first-use" };
        }
        if (args.kind === "import-statement" && /^\.\.?\/(.*\/)?errors\.js$/.test(args.path)) {
          return {
            errors: [
              {
                text: `${args.importer} imports ${args.path} statically: import KbtsError with await import() where it is used, so the bundled CLI and the commands share one class`,
              },
            ],
          };
        }
        return undefined;
      });
      build.onLoad({ filter: /.*/, namespace: "kbts-on-first-use" }, (args) => ({
        contents: `module.exports = new Proxy({}, { get: (_, name) => require(${JSON.stringify(args.path)})[name] });`,
        loader: "js",
      }));
    },
  };
}

/**
 * Bundles dist/cli/main.js into dist/cli.cjs (or, with `source`, src/cli/main.ts without writing, as
 * help-path.test.ts does); returns the files bundled, relative to root.
 */
export async function bundleCli(root = ROOT, options: { source?: boolean } = {}): Promise<string[]> {
  const { build } = await import("esbuild");
  const outfile = join(root, CLI_BUNDLE);
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, options.source ? "src/cli/main.ts" : "dist/cli/main.js")],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    outfile,
    write: false,
    metafile: true,
    logLevel: "silent",
    // version.ts reads ../package.json beside its own file; the bundle sits where version.js does.
    define: { "import.meta.url": "__kbtsModuleUrl" },
    banner: { js: 'const __kbtsModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
    plugins: [declarationsOnly(dirname(outfile))],
  });
  const [output] = result.outputFiles;
  if (!options.source && output) {
    // Whole or not at all: a kbts started meanwhile (e2e files build while others run) reads the old one.
    writeFileSync(`${outfile}.tmp`, output.contents);
    renameSync(`${outfile}.tmp`, outfile);
  }
  return Object.keys(result.metafile.inputs).sort();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleCli();
}
