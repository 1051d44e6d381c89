// The production build of the manager (make build-bundle; the Dockerfile runs it): cmd/main.ts and
// everything it reaches (this project's code, @kbts/runtime and their dependencies) bundled by esbuild,
// tree-shaken, with source maps, into dist/manager/. The image carries node and that directory only: no
// node_modules, and no module resolution or file reads module by module at start.
//
//   dist/manager/manager.mjs     the entry: turns on V8's compile cache, then imports main.mjs
//   dist/manager/main.mjs        the manager; chunks/ holds the code it imports only when used
//                                (tracing, kubeconfig auth plugins), so a plain manager never reads it
//   dist/manager/compile-cache/  V8's code for all of it, made here, so a start compiles nothing again
//   *.map                        source maps: NODE_OPTIONS=--enable-source-maps gives TypeScript stacks
//
// Why V8's compile cache and not a startup snapshot (node --build-snapshot), measured on the GPUBudget
// operator with node 24: the cache takes loading the bundle from 191 to 171 ms of CPU (a plain `node`
// start is 54 ms; tsc output with node_modules, 426 ms), at the same peak resident memory (66 MiB). A
// snapshot cannot be built of it: node:http's parser, which the API client and the servers load, is a
// native handle a snapshot cannot hold ("global handle not serialized"); it would also take a CommonJS
// bundle without import() (so no lazily loaded chunks) and be tied to the exact node binary.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import module from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const OUT = "dist/manager";

/**
 * Modules some dependency loads only if they are installed, in a try/catch, and which this project
 * does not install: left out of the bundle, so what uses them takes its fallback, as it would in
 * node_modules without them. The build names each one it leaves out, and why.
 */
const OPTIONAL = {
  bufferutil: "ws's optional native WebSocket masking (a C++ addon); ws uses its JavaScript code",
  "utf-8-validate": "ws's optional native UTF-8 check (a C++ addon); ws uses its JavaScript code",
  encoding: "node-fetch's optional charset conversion; node-fetch uses UTF-8",
  "supports-color": "debug's optional color detection; debug logs without colors",
};

/** Leaves out the OPTIONAL modules that cannot be resolved from where they are imported. */
const optionalModules = {
  name: "optional-modules",
  setup(b) {
    const left = new Map();
    const filter = new RegExp(`^(${Object.keys(OPTIONAL).join("|")})$`);
    b.onResolve({ filter }, async (args) => {
      if (args.pluginData === "optional-modules") return undefined;
      const resolved = await b.resolve(args.path, {
        importer: args.importer,
        resolveDir: args.resolveDir,
        kind: args.kind,
        pluginData: "optional-modules",
      });
      if (resolved.errors.length === 0) return resolved;
      left.set(args.path, OPTIONAL[args.path]);
      return { path: args.path, external: true };
    });
    b.onEnd(() => {
      for (const [name, why] of left) console.log(`build-bundle: not bundled: ${name}: ${why}`);
    });
  },
};

/**
 * node's built-in modules loaded with require(), not import. An ES module import of a built-in gets
 * its ES module facade, which reads every export and so runs every lazy getter: on node 24 an import
 * of node:http loads undici and node:http2, which the manager never uses (20 of the 130 ms it took to
 * load the GPUBudget operator's bundle). require() returns the module itself, whose getters run only
 * when used.
 */
const builtinsByRequire = {
  name: "builtins-by-require",
  setup(b) {
    const builtins = new Set(module.builtinModules);
    b.onResolve({ filter: /^(node:)?[a-z_/0-9]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, "");
      if (args.kind !== "import-statement" || !builtins.has(name)) return undefined;
      return { path: `node:${name}`, namespace: "builtin-by-require" };
    });
    b.onLoad({ filter: /.*/, namespace: "builtin-by-require" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};

/**
 * esbuild's options for the manager's bundle: exported so a test can bundle a manager exactly as the
 * image does.
 */
export function bundleOptions({ entryPoints, outdir }) {
  return {
    entryPoints,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20.19",
    outdir,
    outExtension: { ".js": ".mjs" },
    chunkNames: "chunks/[name]-[hash]",
    sourcemap: "linked",
    // The bundled CommonJS packages (and builtinsByRequire) require() node's built-in modules: give
    // each ESM chunk a require.
    banner: {
      js: 'import { createRequire as __kbtsCreateRequire } from "node:module"; const require = __kbtsCreateRequire(import.meta.url);',
    },
    // A .node file is a native addon: it cannot be in a bundle, and the build fails naming it.
    loader: { ".node": "empty" },
    metafile: true,
    logLevel: "warning",
    plugins: [optionalModules, builtinsByRequire],
  };
}

// Imported (by a test) for bundleOptions only; run, it builds.
const script = process.argv[1];
if (script && import.meta.url === pathToFileURL(realpathSync(script)).href) await buildManager();

async function buildManager() {
  rmSync(OUT, { recursive: true, force: true });
  const result = await build(bundleOptions({ entryPoints: { main: "cmd/main.ts" }, outdir: OUT }));
  const natives = Object.keys(result.metafile.inputs).filter((f) => f.endsWith(".node"));
  if (natives.length > 0) {
    console.error(
      `build-bundle: native addons cannot be bundled: ${natives.join(", ")}; ` +
        "make their packages optional or use a build of them without addons",
    );
    process.exit(1);
  }

  writeFileSync(
    join(OUT, "manager.mjs"),
    `// Generated by hack/build-bundle.mjs. V8's compile cache made at build time (read only here: an
// entry V8 rejects is compiled again, and a write at exit to a read-only file system is skipped).
import { existsSync } from "node:fs";
import module from "node:module";

const cache = new URL("compile-cache", import.meta.url).pathname;
if (typeof module.enableCompileCache === "function" && existsSync(cache)) {
  module.enableCompileCache({ directory: cache, portable: true });
}
await import("./main.mjs");
`,
  );

  // The compile cache: every chunk imported once, then the manager's own module, compiled and stopped
  // at its flag parsing (--help is no flag of it: it exits 2 before it does anything).
  const cache = join(OUT, "compile-cache");
  if (typeof module.enableCompileCache !== "function") {
    console.log(
      `build-bundle: ${OUT}/manager.mjs without a compile cache: node ${process.version} has none (22.1+)`,
    );
    return;
  }
  mkdirSync(cache);
  const chunks = existsSync(join(OUT, "chunks"))
    ? readdirSync(join(OUT, "chunks")).filter((f) => f.endsWith(".mjs"))
    : [];
  const warm = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "--eval",
      `import module from "node:module";
module.enableCompileCache({ directory: ${JSON.stringify(cache)}, portable: true });
for (const chunk of ${JSON.stringify(chunks)}) await import(${JSON.stringify(`./${OUT}/chunks/`)} + chunk);
process.argv.splice(1, Infinity, ${JSON.stringify(join(OUT, "main.mjs"))}, "--help");
await import(${JSON.stringify(`./${OUT}/main.mjs`)});`,
    ],
    { encoding: "utf8", timeout: 60_000, env: { PATH: process.env.PATH, HOME: OUT } },
  );
  if (warm.status !== 2 || readdirSync(cache).length === 0) {
    console.error(
      `build-bundle: making the compile cache: the manager's --help exited ${warm.status ?? warm.signal}, ` +
        `expected 2 (an unknown flag):\n${warm.stderr}`,
    );
    process.exit(1);
  }
  console.log(`build-bundle: ${OUT}/manager.mjs (${chunks.length} chunks, compile cache in ${cache})`);
}
