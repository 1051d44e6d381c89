#!/usr/bin/env node
// Thin launcher: the CLI lives in the compiled src/ (run `make build` first). CommonJS (bin/package.json)
// so that `kbts --help` never starts Node's ES module loader: it loads dist/cli.cjs, the command
// definitions and commander in one file (src/packaging/cli-bundle.ts), through dist/code-cache.cjs so
// V8's code cache holds what the run compiled. Commands load their ES modules.
const { existsSync, statSync } = require("node:fs");
const nodeModule = require("node:module");
const { join } = require("node:path");

// Node >= 22.1 keeps V8's compiled code between runs (in NODE_COMPILE_CACHE or the OS temp dir):
// compiling TypeScript's compiler is most of a cold `kbts manifests`. Node 20 has no such switch;
// there dist/ts/code-cache.js caches the compiler's code itself.
nodeModule.enableCompileCache?.();

const ROOT = join(__dirname, "..");

/**
 * The bundle when it is as new as tsc's last build (cliBundleIsCurrent in src/packaging/cli-bundle.ts):
 * in a checkout, a `tsc -b` after `make build` leaves it stale; an installed kbts has no src/.
 */
function bundleIsCurrent(bundle) {
  try {
    const built = statSync(bundle).mtimeMs;
    if (!existsSync(join(ROOT, "src"))) return true;
    return built >= statSync(join(ROOT, "dist", ".tsbuildinfo")).mtimeMs;
  } catch {
    return false;
  }
}

/**
 * A bundle, with V8's code cache where dist/code-cache.cjs can keep one (src/ts/code-cache.ts): on Node 24
 * a third of `kbts --help`'s own time was compiling the functions it ran, which Node's cache omits.
 */
function loadBundle(bundle) {
  const loader = join(ROOT, "dist", "code-cache.cjs");
  if (!bundleIsCurrent(loader)) return require(bundle);
  return require(loader).runCachedCommonJs(bundle, { importsThroughParameter: true });
}

/**
 * A plain `kbts manifests` on unchanged inputs is served without loading the CLI (see src/cli/fast-path.ts),
 * from its own CommonJS bundle when that is current (src/packaging/cli-bundle.ts).
 */
async function run(argv) {
  if (argv[2] === "manifests") {
    const fastPath = join(ROOT, "dist", "manifests-cached.cjs");
    const { serveCachedManifests } = bundleIsCurrent(fastPath)
      ? loadBundle(fastPath)
      : await import("../dist/cli/fast-path.js");
    const code = await serveCachedManifests(argv);
    if (code !== undefined) return code;
  }
  const bundle = join(ROOT, "dist", "cli.cjs");
  const { main } = bundleIsCurrent(bundle) ? loadBundle(bundle) : await import("../dist/cli/main.js");
  return main(argv);
}

run(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`kbts: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
