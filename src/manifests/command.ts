import { KbtsError } from "../errors.js";
import { findSourceFiles } from "../loading/sources.js";
import { ManifestCache } from "./cache.js";
import type { ManifestResult } from "./generate.js";
import { type WriteOptions, type WriteResult, writeGenerated } from "./write.js";

export interface ManifestsFlags {
  paths?: string[];
  crdOutput?: string;
  roleName?: string;
  allowDangerousTypes?: boolean;
  check?: boolean;
  strict?: boolean;
  /** false (`--no-cache`): always generate, and record nothing. */
  cache?: boolean;
  /** Regenerate on every save until interrupted. */
  watch?: boolean;
}

export function writeOptions(flags: ManifestsFlags, root: string): WriteOptions {
  return {
    root,
    ...(flags.paths ? { paths: flags.paths } : {}),
    ...(flags.crdOutput ? { crdOutput: flags.crdOutput } : {}),
    ...(flags.roleName ? { roleName: flags.roleName } : {}),
    allowDangerousTypes: flags.allowDangerousTypes ?? false,
    check: flags.check ?? false,
    strict: flags.strict ?? false,
  };
}

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
  const result = await writeGenerated(opts, generated);
  report(flags, result, Math.round(performance.now() - started), cached);
}

/** Where a run's lines go: stdout and stderr for the CLI. */
export interface Output {
  log: (line: string) => void;
  error: (line: string) => void;
}

export const STDIO: Output = {
  log: (line) => process.stdout.write(`${line}\n`),
  error: (line) => process.stderr.write(`${line}\n`),
};

/** Prints a run's outcome; with --check, throws when a file is stale. */
export function report(
  flags: ManifestsFlags,
  result: WriteResult,
  ms: number,
  cached: boolean,
  out: Output = STDIO,
): void {
  for (const w of result.warnings) out.error(`warning: ${w.where}: ${w.message}`);
  const took = `${ms}ms${cached ? ", inputs unchanged since the last run" : ""}`;
  if (flags.check) {
    if (result.changed.length > 0) {
      for (const d of result.diffs) process.stderr.write(d);
      throw new KbtsError(
        `${result.changed.length} generated file(s) are stale: ${result.changed.join(", ")}`,
        {
          fix: "run `kbts manifests` and commit the result",
        },
      );
    }
    out.log(`manifests are up to date (${result.unchanged.length} files, ${took})`);
    return;
  }
  for (const f of result.changed) out.log(`wrote ${f}`);
  const warned = result.warnings.length;
  out.log(
    `${result.changed.length} written, ${result.unchanged.length} unchanged (${took})${warned ? `; ${warned} warning(s) above (--strict makes marker warnings errors)` : ""}`,
  );
}
