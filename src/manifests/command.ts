import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ManifestCache } from "./cache.js";
import { type ManifestsFlags, writeOptions } from "./flags.js";
import type { ManifestResult } from "./generate.js";
import { report } from "./report.js";
import { type WriteOptions, writeGenerated } from "./write.js";

export type { ManifestsFlags } from "./flags.js";

/**
 * Generates, or serves from the input-hash cache when nothing the last run read has changed: the
 * cache is looked up before the compiler is loaded, and a full run records its inputs for the next.
 */
export async function generateCached(
  opts: WriteOptions,
  useCache: boolean,
): Promise<{ generated: ManifestResult; cached: boolean }> {
  const cache = useCache ? new ManifestCache(opts.root, opts) : undefined;
  if (cache) {
    const { findSourceFiles } = await import("../loading/sources.js");
    const hit = cache.lookup(await findSourceFiles(opts.root, opts.paths));
    if (hit) return { generated: hit, cached: true };
  }
  const { generateManifests } = await import("./generate.js");
  const generated = await generateManifests(opts);
  // --check writes nothing, the cache included.
  if (cache && !opts.check) cache.store(generated);
  return { generated, cached: false };
}

/** `kbts manifests`: generate (or check) CRDs, RBAC and webhook configuration in the current project. */
export async function runManifests(flags: ManifestsFlags, root = process.cwd()): Promise<void> {
  if (flags.watch) {
    const { watchManifests } = await import("./watch.js");
    // Ctrl-C ends watching, not a run: each run's files are committed in one synchronous step.
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
    await watchManifests(flags, root, { signal: stop.signal });
    process.stdout.write("kbts: stopped watching\n");
    return;
  }
  const started = performance.now();
  const opts = writeOptions(flags, root);
  const { generated, cached } = await generateCached(opts, flags.cache !== false);
  await writeAndReport(flags, opts, generated, started, cached);
}

/** Writes (or checks) a run's manifests and says what it did, with the storage-version notices. */
export async function writeAndReport(
  flags: ManifestsFlags,
  opts: WriteOptions,
  generated: ManifestResult,
  started: number,
  cached: boolean,
): Promise<void> {
  const moved = flags.check ? [] : await storageVersionNotices(opts.root, generated);
  const result = await writeGenerated(opts, generated);
  report(flags, result, Math.round(performance.now() - started), cached);
  for (const line of moved) process.stdout.write(`${line}\n`);
}

/**
 * The storage-version notices (storage/notice.ts), which read the CRD files being replaced with the
 * YAML parser: loaded only when a generated CRD differs from its file on disk, never on a run that
 * changes no CRD (the cached fast path's usual case).
 */
async function storageVersionNotices(root: string, generated: ManifestResult): Promise<string[]> {
  const changes = [...generated.crds.keys()].some((path) => {
    try {
      return readFileSync(join(root, path), "utf8") !== generated.files.get(path);
    } catch {
      return false;
    }
  });
  if (!changes) return [];
  const { storageVersionChanges } = await import("../storage/notice.js");
  return storageVersionChanges(root, generated);
}
