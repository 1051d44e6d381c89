import { isAscii } from "node:buffer";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { basename, dirname, join, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { Script } from "node:vm";
import { kbtsCacheDir } from "../cache-dir.js";
import { writeFileWhole } from "../files/write-whole.js";

interface NodeModule {
  exports: unknown;
  filename: string;
  loaded: boolean;
  paths: string[];
}
interface ModuleInternals {
  new (id: string, parent?: unknown): NodeModule;
  _cache: Record<string, NodeModule | undefined>;
  _nodeModulePaths(dir: string): string[];
  wrap(source: string): string;
  getCompileCacheDir?: () => string | undefined;
}
const internals = Module as unknown as ModuleInternals;

/**
 * Where kbts keeps V8's code cache for `file`: in Node's compile-cache folder when bin/kbts.js has
 * enabled it (Node >= 22.8 says where; NODE_COMPILE_CACHE moves it), otherwise beside the node_modules
 * the file was installed into, or (a checkout's dist/) in kbts' user cache. Named by the file, the
 * Node version and the file's size and mtime, not a digest: node:crypto would cost `kbts --help` a
 * millisecond. V8 also refuses data made by another V8 or for another source, so a wrong file costs
 * one recompile, never a crash.
 */
function cachePath(file: string): string {
  const nodeCache = internals.getCompileCacheDir?.();
  const at = file.lastIndexOf(`${sep}node_modules${sep}`);
  const dir = nodeCache
    ? join(nodeCache, "kbts")
    : at >= 0
      ? join(file.slice(0, at), "node_modules", ".cache", "kbts", "v8")
      : join(kbtsCacheDir(), "v8");
  const st = statSync(file);
  return join(dir, `${cachePrefix(file)}${st.size}-${Math.trunc(st.mtimeMs)}.bin`);
}

/** What every cache of `file` for this Node is named by; its build's size and mtime follow. */
const cachePrefix = (file: string): string => `${basename(file)}-${process.version}-${process.arch}-`;

/**
 * The parameter through which the bundles of src/packaging/cli-bundle.ts import a module: code V8 reads
 * from a code cache has lost the loader its own import() needs (Node 20 throws "A dynamic import
 * callback was not specified"; Node 24 keeps it only with vm's experimental
 * USE_MAIN_CONTEXT_DEFAULT_LOADER, which prints a warning), so they call the one passed in here.
 */
export const IMPORT_PARAMETER = "__kbtsImport";

/**
 * Loads a CommonJS file as `require` would, with a V8 code cache written when the process exits, so it
 * holds the functions the run compiled too. Node 20 has no compile cache of its own, and Node's
 * (module.enableCompileCache) is written when a module is compiled, before it runs: it holds the top
 * level and little else. Compiling TypeScript's 9 MB compiler was ~100 ms of every `kbts manifests` on
 * Node 20; on Node 24, compiling the functions `kbts --help` runs was a third of its own time.
 *
 * `importsThroughParameter`: the file is such a bundle; its imports resolve from its own folder
 * (importBeside).
 */
export function runCachedCommonJs(
  file: string,
  options: { importsThroughParameter?: boolean } = {},
): unknown {
  const require = createRequire(file);
  const loaded = internals._cache[file];
  if (loaded) return loaded.exports;
  const cache = cachePath(file);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cache);
  } catch {
    cachedData = undefined;
  }
  const bytes = readFileSync(file);
  // ASCII (esbuild's bundles, TypeScript's compiler) decoded as latin1 is the same text in half the
  // time of UTF-8: 12 of 25 ms for the compiler's 9 MB on every cold `kbts manifests`.
  const source = isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
  const script = new Script(
    options.importsThroughParameter
      ? `(function (exports, require, module, __filename, __dirname, ${IMPORT_PARAMETER}) { ${source}\n});`
      : internals.wrap(source),
    { filename: file, ...(cachedData ? { cachedData } : {}) },
  );
  if (!cachedData || script.cachedDataRejected)
    process.once("exit", () => saveCodeCache(script, cache, file));
  const module = new internals(file);
  module.filename = file;
  module.paths = internals._nodeModulePaths(dirname(file));
  internals._cache[file] = module;
  try {
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    const importer = (specifier: string, unbundled?: string) => importBeside(file, specifier, unbundled);
    wrapper.call(module.exports, module.exports, require, module, file, dirname(file), importer);
  } catch (err) {
    delete internals._cache[file];
    throw err;
  }
  module.loaded = true;
  return module.exports;
}

/**
 * IMPORT_PARAMETER of a bundle at `file`. `import(specifier)`, relative to the bundle; or, with
 * `unbundled`, `specifier` is another such bundle (src/packaging/cli-bundle.ts writes both names), loaded
 * with its own code cache, and the module it was made from is imported where it is missing.
 */
function importBeside(file: string, specifier: string, unbundled?: string): Promise<unknown> {
  const url = (s: string) => (s.startsWith(".") ? new URL(s, pathToFileURL(file)).href : s);
  if (unbundled === undefined) return import(url(specifier));
  const bundle = join(dirname(file), specifier);
  if (!existsSync(bundle)) return import(url(unbundled));
  return Promise.resolve().then(() => runCachedCommonJs(bundle, { importsThroughParameter: true }));
}

/**
 * Writes the cache, and removes the caches of the file's earlier builds for this Node (their names
 * differ only in size and mtime): in a checkout every `make build` makes new ones.
 */
function saveCodeCache(script: Script, path: string, file: string): void {
  try {
    const dir = dirname(path);
    mkdirSync(dir, { recursive: true });
    writeFileWhole(path, script.createCachedData());
    const earlier = cachePrefix(file);
    for (const name of readdirSync(dir)) {
      if (name.startsWith(earlier) && name.endsWith(".bin") && name !== basename(path))
        rmSync(join(dir, name), { force: true });
    }
  } catch {
    // A read-only or full disk only means the next run compiles again.
  }
}
