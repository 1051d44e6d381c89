import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { basename, dirname, join, sep } from "node:path";
import { Script } from "node:vm";

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
 * Where V8's code cache for a file in node_modules is kept: beside it, in the node_modules/.cache/kbts
 * it was installed into, keyed by the Node version and the file's size and mtime (V8 also refuses
 * data made by another V8 or for another source, so a wrong file costs one recompile, never a crash).
 */
function cachePath(file: string): string | undefined {
  const at = file.lastIndexOf(`${sep}node_modules${sep}`);
  if (at < 0) return undefined;
  const st = statSync(file);
  const key = createHash("sha256")
    .update(`${process.version}\0${process.arch}\0${file}\0${st.size}\0${st.mtimeMs}`)
    .digest("hex")
    .slice(0, 16);
  return join(file.slice(0, at), "node_modules", ".cache", "kbts", "v8", `${basename(file)}-${key}.bin`);
}

/**
 * Loads a CommonJS file as `require` would, but with V8's code cache on Node 20, which has no
 * module.enableCompileCache: compiling TypeScript's 9 MB compiler is ~100 ms of every run otherwise.
 * The cache is written when the process exits, so it holds the functions the run compiled too.
 * Where Node has its own compile cache (enabled by bin/kbts.js on Node >= 22.1), plain require.
 */
export function runCachedCommonJs(file: string): unknown {
  const require = createRequire(file);
  const loaded = internals._cache[file];
  if (loaded) return loaded.exports;
  const cache = internals.getCompileCacheDir?.() ? undefined : cachePath(file);
  if (!cache) return require(file);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cache);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(internals.wrap(readFileSync(file, "utf8")), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  if (!cachedData || script.cachedDataRejected) process.once("exit", () => saveCodeCache(script, cache));
  const module = new internals(file);
  module.filename = file;
  module.paths = internals._nodeModulePaths(dirname(file));
  internals._cache[file] = module;
  try {
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    wrapper.call(module.exports, module.exports, require, module, file, dirname(file));
  } catch (err) {
    delete internals._cache[file];
    throw err;
  }
  module.loaded = true;
  return module.exports;
}

function saveCodeCache(script: Script, path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, path);
  } catch {
    // A read-only or full disk only means the next run compiles again.
  }
}
