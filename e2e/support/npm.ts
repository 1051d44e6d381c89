/**
 * `npm install` of a scaffolded project as a new user on a fresh machine runs it: the registry first
 * (npm's default; a cached copy is used only when the registry cannot be reached), never `--offline`,
 * and with an npm cache of its own that starts empty, so a test never passes because an earlier run
 * (or another test) warmed the cache. Every test and the demo install scaffolded projects through here.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";

/** A new, empty npm cache directory under the system temp dir. */
export function emptyNpmCache(): string {
  return mkdtempSync(join(tmpdir(), "kbts-npm-cache-"));
}

/** Runs `use` with a new, empty npm cache, removed when it settles: an install fills one with ~110 MB. */
export async function withEmptyNpmCache<T>(use: (cache: string) => Promise<T>): Promise<T> {
  const cache = emptyNpmCache();
  try {
    return await use(cache);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

/**
 * The environment for an npm command that uses `cache` and the registry: npm_config_offline and
 * prefer-offline from the caller's environment are overridden, so nothing turns the install offline.
 */
export function npmEnv(cache: string): Record<string, string> {
  return {
    npm_config_cache: cache,
    npm_config_offline: "false",
    npm_config_prefer_offline: "false",
    npm_config_update_notifier: "false",
  };
}

export interface NpmInstallOptions {
  /** The npm cache to use; by default a new empty one, removed afterwards. */
  cache?: string;
  /** `ci` installs exactly the committed lockfile; `install` (default) resolves and writes it. */
  command?: "install" | "ci";
  /** More arguments, e.g. `--global --prefix DIR ./kbts-0.1.0.tgz`. */
  args?: string[];
  /** Extra environment (merged over the caller's). */
  env?: Record<string, string>;
}

/** What an npm command did: its exit code and its whole output (stdout and stderr interleaved). */
export interface NpmResult {
  exitCode: number | undefined;
  all: string;
}

/**
 * Runs `npm install` (or `npm ci`) in `cwd` with its own npm cache. Never throws on a non-zero exit:
 * the result carries the exit code and the whole output (`all`) for the caller's assertion.
 */
export async function npmInstall(cwd: string, options: NpmInstallOptions = {}): Promise<NpmResult> {
  const { cache } = options;
  if (cache === undefined) return withEmptyNpmCache((empty) => npmInstall(cwd, { ...options, cache: empty }));
  const { exitCode, all } = await execa(
    "npm",
    [options.command ?? "install", "--no-audit", "--no-fund", ...(options.args ?? [])],
    {
      cwd,
      env: { ...npmEnv(cache), ...options.env },
      all: true,
      reject: false,
      stdin: "ignore",
    },
  );
  return { exitCode, all };
}
