#!/usr/bin/env node
// Thin launcher: the CLI lives in the compiled src/ (run `npm run build` first).
import module from "node:module";

// Node >= 22.1 keeps V8's compiled code between runs (in NODE_COMPILE_CACHE or the OS temp dir):
// compiling TypeScript's compiler is most of a cold `kbts manifests`. Node 20 has no such switch;
// there dist/loading/code-cache.js caches the compiler's code itself.
module.enableCompileCache?.();
const { main } = await import("../dist/cli/main.js");

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`kbts: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
