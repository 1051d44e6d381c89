#!/usr/bin/env node
// Thin launcher: the CLI lives in the compiled src/ (run `npm run build` first).
import module from "node:module";

// Node >= 22.1 keeps V8's compiled code between runs (in NODE_COMPILE_CACHE or the OS temp dir):
// compiling TypeScript's compiler is most of a cold `kbts manifests`. Node 20 has no such switch;
// there dist/ts/code-cache.js caches the compiler's code itself.
module.enableCompileCache?.();

/** A plain `kbts manifests` on unchanged inputs is served without loading the CLI (see src/cli/fast-path.ts). */
async function run(argv) {
  if (argv[2] === "manifests") {
    const { serveCachedManifests } = await import("../dist/cli/fast-path.js");
    const code = await serveCachedManifests(argv);
    if (code !== undefined) return code;
  }
  const { main } = await import("../dist/cli/main.js");
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
