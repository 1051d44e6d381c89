import { KbtsError } from "../errors.js";
import { listDefaultSourceFiles } from "../loading/default-sources.js";
import { ManifestCache } from "../manifests/cache.js";
import { writeAndReport } from "../manifests/command.js";
import { DEFAULT_CRD_OUTPUT, DEFAULT_ROLE_NAME } from "../manifests/defaults.js";
import { type ManifestsFlags, writeOptions } from "../manifests/flags.js";
import { exitCleanlyOnSignals } from "../process.js";

/**
 * `kbts manifests` on unchanged inputs without loading the CLI (commander and every command's module):
 * issue 14 wants a cached run at a fraction of controller-gen's time, and Node's start-up is most of it.
 * Only plain generate runs take this path; the flags are parsed here as commander parses them (same
 * defaults, so the same cache entry). Any other flag or form, a cache miss or an error before a hit
 * falls back to the full CLI, which then says and does exactly what it always did.
 */

const VALUE_FLAGS = { "--crd-output": "crdOutput", "--role-name": "roleName" } as const;
const SWITCHES = { "--allow-dangerous-types": "allowDangerousTypes", "--strict": "strict" } as const;

/** The flags of a plain `kbts manifests …` argv (after the subcommand), or undefined for anything else. */
export function plainManifestsFlags(args: string[]): ManifestsFlags | undefined {
  // commander's defaults (the same constants): they are part of the cache entry's key.
  const flags: ManifestsFlags = {
    crdOutput: DEFAULT_CRD_OUTPUT,
    roleName: DEFAULT_ROLE_NAME,
    cache: true,
  };
  const seen = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (seen.has(arg)) return undefined;
    seen.add(arg);
    if (arg in SWITCHES) {
      flags[SWITCHES[arg as keyof typeof SWITCHES]] = true;
    } else if (arg in VALUE_FLAGS) {
      const value = args[++i];
      if (value === undefined || value.startsWith("-")) return undefined;
      flags[VALUE_FLAGS[arg as keyof typeof VALUE_FLAGS]] = value;
    } else if (arg === "--paths") {
      const paths: string[] = [];
      while (i + 1 < args.length && !(args[i + 1] as string).startsWith("-")) paths.push(args[++i] as string);
      if (paths.length === 0) return undefined;
      flags.paths = paths;
    } else {
      return undefined;
    }
  }
  return flags;
}

/**
 * Serves `kbts manifests` from the input-hash cache: the exit code, or undefined when the full CLI must
 * run (not a plain run, a miss, or anything amiss before the hit; the full run reports it).
 */
export async function serveCachedManifests(
  argv: string[],
  root = process.cwd(),
): Promise<number | undefined> {
  if (argv[2] !== "manifests") return undefined;
  const flags = plainManifestsFlags(argv.slice(3));
  if (!flags) return undefined;
  const started = performance.now();
  const opts = writeOptions(flags, root);
  let generated: ReturnType<ManifestCache["lookup"]>;
  try {
    // The glob library only when the plain walk cannot stand in for it.
    const scanned =
      (opts.paths === undefined ? listDefaultSourceFiles(root) : undefined) ??
      (await (await import("../loading/sources.js")).findSourceFiles(root, opts.paths));
    generated = new ManifestCache(root, opts).lookup(scanned);
  } catch {
    return undefined;
  }
  if (!generated) return undefined;
  exitCleanlyOnSignals();
  try {
    await writeAndReport(flags, opts, generated, started, true);
    return 0;
  } catch (err) {
    if (err instanceof KbtsError) {
      process.stderr.write(`error: ${err.format()}\n`);
      return 1;
    }
    throw err;
  }
}
