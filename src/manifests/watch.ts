import { type Dirent, type FSWatcher, readdirSync, watch } from "node:fs";
import { dirname, join, relative } from "node:path";
import { KbtsError } from "../errors.js";
import { checkScanPaths } from "../loading/bounds.js";
import { ParsedFiles } from "../loading/program.js";
import { DEFAULT_PATHS } from "../loading/sources.js";
import { ManifestCache } from "./cache.js";
import { type ManifestsFlags, writeOptions } from "./flags.js";
import { generateManifests } from "./generate.js";
import { type Output, report, STDIO } from "./report.js";
import { writeGenerated } from "./write.js";

export interface WatchOptions {
  /** Stops watching (the CLI aborts on SIGINT/SIGTERM). */
  signal?: AbortSignal;
  /** Quiet time after the last change before regenerating, in ms. */
  debounceMs?: number;
  /** Where progress and errors go (the CLI: stdout and stderr). */
  out?: Output;
}

const SKIP_DIRS = new Set(["node_modules", "dist", ".git"]);

/** The directories to watch: those of every file the last run read, and every directory under the scanned roots (new files appear there). */
function watchedDirs(root: string, flags: ManifestsFlags, read: Iterable<string>): Set<string> {
  const dirs = new Set<string>([root]);
  for (const file of read) dirs.add(dirname(file));
  const walk = (dir: string, depth: number): void => {
    if (depth > 20) return;
    dirs.add(dir);
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries)
      if (e.isDirectory() && !SKIP_DIRS.has(e.name)) walk(join(dir, e.name), depth + 1);
  };
  for (const p of flags.paths ? checkScanPaths(root, flags.paths) : DEFAULT_PATHS) {
    // The part of a glob before its first wildcard is a directory to watch whole.
    const segments = p.split("/");
    const firstGlob = segments.findIndex((x) => /[*?[\]{}!]/.test(x));
    const fixed = firstGlob < 0 ? segments : segments.slice(0, firstGlob);
    const base = join(root, ...fixed);
    walk(firstGlob < 0 && p.endsWith(".ts") ? dirname(base) : base, 0);
  }
  return dirs;
}

/**
 * `kbts manifests --watch`: one full run, then a run after every save (debounced), with the parsed
 * files kept between runs so only the changed file is parsed again. A run that fails (a syntax error
 * in the file being edited) is printed and watching goes on; the input-hash cache is kept current, so
 * a later plain `kbts manifests` is served from it.
 */
export async function watchManifests(
  flags: ManifestsFlags,
  root: string,
  options: WatchOptions = {},
): Promise<void> {
  const out = options.out ?? STDIO;
  const { log, error } = out;
  const debounceMs = options.debounceMs ?? 30;
  const opts = writeOptions({ ...flags, check: false }, root);
  const parsed = new ParsedFiles();
  const cache = flags.cache === false ? undefined : new ManifestCache(root, opts);
  let read: Iterable<string> = [];
  const watchers = new Map<string, FSWatcher>();
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const run = async (changed: string[]): Promise<void> => {
    const started = performance.now();
    if (changed.length > 0) log(`changed: ${changed.join(", ")}`);
    try {
      const generated = await generateManifests({ ...opts, parsed });
      read = generated.inputs.read.keys();
      cache?.store(generated);
      const result = await writeGenerated(opts, generated);
      report(flags, result, Math.round(performance.now() - started), false, out);
    } catch (err) {
      error(
        `error: ${err instanceof KbtsError ? err.format() : err instanceof Error ? err.message : String(err)}`,
      );
      error("kbts: still watching; fix the error and save again");
    }
    rewatch();
  };

  const onEvent = (dir: string, name: string | null): void => {
    if (!name || !(name.endsWith(".ts") || name === "tsconfig.json")) return;
    pending.add(relative(root, join(dir, name)));
    clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };

  const flush = (): void => {
    if (running) {
      // A save during a run: run again when it ends.
      timer = setTimeout(flush, debounceMs);
      return;
    }
    const changed = [...pending].sort();
    pending.clear();
    running = run(changed).finally(() => {
      running = undefined;
    });
  };

  const rewatch = (): void => {
    const dirs = watchedDirs(root, flags, read);
    for (const [dir, w] of watchers) {
      if (dirs.has(dir)) continue;
      w.close();
      watchers.delete(dir);
    }
    for (const dir of dirs) {
      if (watchers.has(dir)) continue;
      try {
        const w = watch(dir, (_event, name) => onEvent(dir, name === null ? null : String(name)));
        w.on("error", () => {
          w.close();
          watchers.delete(dir);
        });
        watchers.set(dir, w);
      } catch {
        // A directory removed meanwhile: the next run's list drops it.
      }
    }
  };

  await run([]);
  log("kbts: watching for changes (Ctrl-C to stop)");
  await new Promise<void>((resolveStop) => {
    const stop = (): void => {
      clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
      void (running ?? Promise.resolve()).then(() => resolveStop());
    };
    if (options.signal?.aborted) stop();
    options.signal?.addEventListener("abort", stop, { once: true });
  });
}
