/**
 * dist/cli.cjs: the CLI's declaration layer (src/cli's command definitions, completion and commander) in
 * one CommonJS file, so `kbts --help` reads one file and never starts Node's ES module loader. Every
 * command's implementation stays a separate module of dist/, loaded by the action's dynamic import().
 * bin/kbts.js falls back to dist/cli/main.js (the same code, unbundled) when the bundle is missing or
 * older than tsc's last build.
 *
 * dist/manifests-cached.cjs: the same for `kbts manifests` on unchanged inputs (src/cli/fast-path.ts and
 * what it imports), which issue 32 wants at a fifth of controller-gen's time: starting the ES module
 * loader and reading its dozen modules was about a tenth of that run.
 *
 * dist/manifests.cjs: a full `kbts manifests` (src/manifests/command.ts and all it reaches, but
 * TypeScript's compiler, which src/ts/typescript.ts loads with its own code cache, and errors.ts),
 * which dist/cli.cjs loads in place of the ES modules: on Node 20, compiling those modules and the
 * functions they ran, with no cache, was a sixth of a cold run.
 *
 * dist/code-cache.cjs: src/ts/code-cache.ts, with which bin/kbts.js loads the others, so that V8's
 * code cache holds the functions a run compiled (Node's own holds little more than their top level).
 *
 * Run after `tsc -b` (make build does): `node dist/packaging/cli-bundle.js`.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "esbuild";
import { writeFileWhole } from "../files/write-whole.js";
import { IMPORT_PARAMETER } from "../ts/code-cache.js";

/** The bundles, relative to the package root; at dist/'s top so version.ts finds ../package.json. */
export const CLI_BUNDLE = "dist/cli.cjs";
export const FAST_PATH_BUNDLE = "dist/manifests-cached.cjs";
export const MANIFESTS_BUNDLE = "dist/manifests.cjs";
export const CODE_CACHE_BUNDLE = "dist/code-cache.cjs";
/** Every bundle `make build` writes. */
export const BUNDLES = [MANIFESTS_BUNDLE, CLI_BUNDLE, FAST_PATH_BUNDLE, CODE_CACHE_BUNDLE];
/** The modules the CLI imports from a bundle of their own: the module beside dist/cli.cjs, and the bundle. */
const BUNDLED_IMPORTS: Record<string, string> = { "./manifests/command.js": "./manifests.cjs" };
/** Written by every `tsc -b` that emits (tsconfig.json's tsBuildInfoFile). */
const TSBUILDINFO = "dist/.tsbuildinfo";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Whether root's bundle is as new as its compiled modules. An installed kbts has no src/: its bundle
 * and modules come from one build, and npm does not keep their times.
 */
export function cliBundleIsCurrent(root: string, bundle = CLI_BUNDLE): boolean {
  try {
    const built = statSync(join(root, bundle)).mtimeMs;
    if (!existsSync(join(root, "src"))) return true;
    return built >= statSync(join(root, TSBUILDINFO)).mtimeMs;
  } catch {
    return false;
  }
}

/**
 * Static imports are bundled; dynamic import()s stay imports of the modules beside the bundle (their
 * paths rewritten from the importer's folder to the bundle's, and made through IMPORT_PARAMETER);
 * commander's node:child_process loads on first use. errors.ts may not be bundled: the
 * implementations throw its KbtsError, and a second copy of the class would fail `instanceof`.
 */
function declarationsOnly(outdir: string, imported: Set<string>): Plugin {
  return {
    name: "kbts-declarations-only",
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "dynamic-import")
          return besideTheBundle(outdir, args.path, args.resolveDir, imported);
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
 * A dynamic import() kept as an import of the module beside the bundle, its path made relative to it
 * (and noted in `imported`, for bundleOne to route through IMPORT_PARAMETER).
 */
function besideTheBundle(
  outdir: string,
  path: string,
  resolveDir: string,
  imported: Set<string>,
): { path: string; external: true } {
  const target = path.startsWith(".") ? relative(outdir, resolve(resolveDir, path)) : path;
  const kept = !path.startsWith(".") || target.startsWith(".") ? target : `./${target}`;
  imported.add(kept);
  return { path: kept, external: true };
}

/**
 * The manifests bundle imports errors.js from beside it (static imports become require(), which loads
 * the ES module on Node >= 20.19): the CLI prints what it throws, and tells a KbtsError by its class.
 */
function errorsBeside(outdir: string): Plugin {
  return {
    name: "kbts-errors-beside",
    setup(build) {
      // src/errors.ts (built as dist/errors.js), not another folder's errors.js.
      const roots = [outdir, join(dirname(outdir), "src")];
      build.onResolve({ filter: /^\.\.?\/(.*\/)?errors\.js$/ }, (args) => {
        const target = resolve(args.resolveDir, args.path);
        if (!roots.includes(dirname(target))) return undefined;
        return { path: `./${relative(outdir, target).split(sep).join("/")}`, external: true };
      });
    },
  };
}

/**
 * The fast path's own copy of KbtsError is fine, unlike the CLI bundle's: what it throws it catches
 * itself, and anything else falls back to the full CLI.
 */
function dynamicImportsBeside(outdir: string, imported: Set<string>): Plugin {
  return {
    name: "kbts-dynamic-imports-beside",
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) =>
        args.kind === "dynamic-import"
          ? besideTheBundle(outdir, args.path, args.resolveDir, imported)
          : undefined,
      );
    },
  };
}

/** One CommonJS bundle of `entry` into `bundle` (relative to root); written whole, unless `source`. */
async function bundleOne(
  root: string,
  entry: string,
  bundle: string,
  plugin: (outdir: string, imported: Set<string>) => Plugin,
  source: boolean,
): Promise<string[]> {
  const { build } = await import("esbuild");
  const outfile = join(root, bundle);
  const imported = new Set<string>();
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, entry)],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    outfile,
    write: false,
    metafile: true,
    logLevel: "silent",
    // version.ts finds kbts' root from its own folder; the bundle sits where version.js does. A file
    // URL is made only when asked for: pathToFileURL was a tenth of the CLI bundle's load on Node 20.
    define: { "import.meta.dirname": "__dirname", "import.meta.url": "__kbtsMeta.url" },
    // Loaded plainly (by require), the bundle has no IMPORT_PARAMETER: its own import() then works, of
    // the ES module a bundled import was made from.
    banner: {
      js: `const __kbtsMeta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };\nvar ${IMPORT_PARAMETER} = ${IMPORT_PARAMETER} || ((specifier, unbundled) => import(unbundled ?? specifier));`,
    },
    plugins: [plugin(dirname(outfile), imported)],
  });
  const [output] = result.outputFiles;
  if (!source && output) {
    let code = output.text;
    for (const path of imported) {
      const bundled = BUNDLED_IMPORTS[path];
      code = code.replaceAll(
        `import(${JSON.stringify(path)})`,
        bundled
          ? `${IMPORT_PARAMETER}(${JSON.stringify(bundled)}, ${JSON.stringify(path)})`
          : `${IMPORT_PARAMETER}(${JSON.stringify(path)})`,
      );
    }
    // Code read from a code cache has no loader for import() (code-cache.ts): no dynamic import esbuild
    // kept (the metafile's; a comment may also say "import('./x.js')") may be left unrouted.
    const dynamic = Object.values(result.metafile.outputs)
      .flatMap((o) => o.imports)
      .filter((i) => i.kind === "dynamic-import")
      .map((i) => i.path);
    const left = dynamic.filter((path) =>
      new RegExp(`\\bimport\\(\\s*["'\`]${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["'\`]\\s*\\)`).test(
        code,
      ),
    );
    if (left.length)
      throw new Error(
        `${bundle}: import(${left.join(", ")}) is not made through ${IMPORT_PARAMETER} (cli-bundle.ts)`,
      );
    // Whole or not at all: a kbts started meanwhile (e2e files build while others run) reads the old one.
    // Two builds may run at once (make demo-lts beside an e2e file's build).
    writeFileWhole(outfile, code);
  }
  return Object.keys(result.metafile.inputs).sort();
}

/**
 * Bundles dist/cli/main.js into dist/cli.cjs (or, with `source`, src/cli/main.ts without writing, as
 * help-path.test.ts does); returns the files bundled, relative to root.
 */
export async function bundleCli(root = ROOT, options: { source?: boolean } = {}): Promise<string[]> {
  const source = options.source === true;
  const entry = source ? "src/cli/main.ts" : "dist/cli/main.js";
  return bundleOne(root, entry, CLI_BUNDLE, declarationsOnly, source);
}

/** Bundles dist/cli/fast-path.js into dist/manifests-cached.cjs (or src/cli/fast-path.ts, with `source`). */
export async function bundleFastPath(root = ROOT, options: { source?: boolean } = {}): Promise<string[]> {
  const source = options.source === true;
  const entry = source ? "src/cli/fast-path.ts" : "dist/cli/fast-path.js";
  return bundleOne(root, entry, FAST_PATH_BUNDLE, dynamicImportsBeside, source);
}

/**
 * Bundles dist/manifests/command.js into dist/manifests.cjs (or src/manifests/command.ts, with
 * `source`); returns the files bundled, relative to root.
 */
export async function bundleManifests(root = ROOT, options: { source?: boolean } = {}): Promise<string[]> {
  const source = options.source === true;
  const entry = source ? "src/manifests/command.ts" : "dist/manifests/command.js";
  return bundleOne(root, entry, MANIFESTS_BUNDLE, errorsBeside, source);
}

/** Bundles dist/ts/code-cache.js into dist/code-cache.cjs, which bin/kbts.js loads the bundles with. */
export async function bundleCodeCache(root = ROOT): Promise<string[]> {
  return bundleOne(root, "dist/ts/code-cache.js", CODE_CACHE_BUNDLE, dynamicImportsBeside, false);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleManifests();
  await bundleCli();
  await bundleFastPath();
  await bundleCodeCache();
}
