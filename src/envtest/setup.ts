import {
  accessSync,
  chmodSync,
  constants,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  rmSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import {
  assetEnvVar,
  BINARY_NAMES,
  type ClusterBinaryName,
  goPlatform,
  KWOK_STAGES_FILE,
  KWOK_VERSION,
  storeRoot,
  storeVersionDir,
} from "@kbts/runtime/envtest";
import lockfile from "proper-lockfile";
import { kbtsCacheDir } from "../cache-dir.js";
import { KbtsError } from "../errors.js";
import { KUBERNETES_VERSION } from "../version.js";
import { buildClusterBinaries, buildFromGoModules } from "./build.js";
import { tryDownload } from "./download.js";
import { findGo, runGo } from "./go.js";
import { Progress } from "./progress.js";
import {
  describeSpec,
  parseVersionSpec,
  pickVersion,
  previousMinor,
  stableReleases,
  type VersionSpec,
} from "./versions.js";

type Env = Record<string, string | undefined>;

export interface SetupOptions {
  /** `1.36.3`, `1.36`; default KUBERNETES_VERSION. */
  version?: string;
  /** Store root to use instead of the default (setup-envtest's --bin-dir). */
  binDir?: string;
  /** Never download or build (setup-envtest's -i). */
  installedOnly?: boolean;
  env?: Env;
  progress?: Progress;
  /** Try the official envtest archive before building (default true unless KBTS_ENVTEST_DOWNLOAD=false). */
  download?: boolean;
  /** Cluster-mode binaries wanted too (kube-controller-manager, kube-scheduler, kwok); built on first ask. */
  components?: ClusterBinaryName[];
}

export interface SetupResult {
  /** Directory holding etcd, kube-apiserver and kubectl. */
  dir: string;
  /** The release, when known (unknown for a KUBEBUILDER_ASSETS directory outside the store). */
  version: string | undefined;
  source: "env" | "store" | "download" | "build";
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function complete(dir: string): boolean {
  return BINARY_NAMES.every((n) => executable(join(dir, n)));
}

/** The files a cluster-mode component needs in a release directory (kwok also needs its stages). */
function componentFiles(components: readonly ClusterBinaryName[]): string[] {
  return [...components, ...(components.includes("kwok") ? [KWOK_STAGES_FILE] : [])];
}

function missingComponents(dir: string, components: readonly ClusterBinaryName[]): ClusterBinaryName[] {
  return components.filter(
    (c) => !executable(join(dir, c)) || (c === "kwok" && !existsSync(join(dir, KWOK_STAGES_FILE))),
  );
}

/** `<root>/k8s/1.36.3-linux-amd64` → `1.36.3`. */
export function versionFromDirName(dir: string): string | undefined {
  const { os, arch } = goPlatform();
  const m = new RegExp(`^(\\d+\\.\\d+\\.\\d+)-${os}-${arch}$`).exec(basename(dir));
  return m?.[1];
}

/** Directories named by the environment, when they hold all three binaries. */
export function fromEnvironment(env: Env): SetupResult | undefined {
  const assets = env.KUBEBUILDER_ASSETS;
  if (assets && complete(assets))
    return { dir: resolve(assets), version: versionFromDirName(assets), source: "env" };
  const paths = BINARY_NAMES.map((n) => env[assetEnvVar(n)]);
  const dirs = new Set(paths.map((p) => (p ? dirname(resolve(p)) : "")));
  const [only] = dirs;
  if (paths.every(Boolean) && dirs.size === 1 && only && complete(only)) {
    return { dir: only, version: versionFromDirName(only), source: "env" };
  }
  return undefined;
}

/** Releases installed (all three binaries present) under a store root, oldest first. */
export function installedVersions(root: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(join(root, "k8s"));
  } catch {
    return [];
  }
  const versions = entries.map((e) => versionFromDirName(e)).filter((v): v is string => v !== undefined);
  return stableReleases(versions).filter((v) => complete(storeVersionDir(v, {}, root)));
}

/** The releases the Go module proxy lists for k8s.io/kubernetes. */
async function proxyVersions(go: string, cwd: string, env: Env): Promise<string[]> {
  const out = await runGo(go, ["list", "-m", "-versions", "k8s.io/kubernetes"], {
    cwd,
    env: { GOFLAGS: "-mod=mod" },
    baseEnv: env,
  });
  return stableReleases(out.trim().split(/\s+/).slice(1));
}

function cacheDir(env: Env): string {
  return join(kbtsCacheDir(env), "envtest-build");
}

/**
 * `kbts setup-envtest use`: finds etcd, kube-apiserver and kubectl for a release, or downloads or builds
 * them into the setup-envtest store. Two concurrent runs never build at once: the second waits for the
 * store lock, then answers from the store.
 */
export async function setupEnvtest(options: SetupOptions = {}): Promise<SetupResult> {
  const components = options.components ?? [];
  const core = await setupCore(options);
  if (components.length === 0 || missingComponents(core.dir, components).length === 0) return core;
  return withClusterBinaries(core, components, options);
}

async function setupCore(options: SetupOptions): Promise<SetupResult> {
  const env = options.env ?? process.env;
  const progress = options.progress ?? new Progress();
  const components = options.components ?? [];
  let spec = parseVersionSpec(options.version ?? KUBERNETES_VERSION);

  // The environment wins, unless its directory is visibly another release than the one asked for, or
  // lacks cluster-mode binaries asked for (then the store's release directory answers, and gets them).
  const fromEnv = fromEnvironment(env);
  if (fromEnv && !(options.version && fromEnv.version && !pickVersion(spec, [fromEnv.version]))) {
    if (missingComponents(fromEnv.dir, components).length === 0) return fromEnv;
    if (!options.version && fromEnv.version) spec = { kind: "exact", version: fromEnv.version };
  }

  const defaultRoot = storeRoot(env);
  const root = options.binDir ? resolve(options.binDir) : defaultRoot;
  const installedOnly = options.installedOnly || env.ENVTEST_INSTALLED_ONLY === "true";
  if (spec.kind === "minor" && !installedOnly) spec = await newestRelease(spec, env, progress);
  const installed = findInstalled(spec, root, defaultRoot, env);
  if (installed) return { dir: linkInto(installed, root, env), version: installed.version, source: "store" };

  if (installedOnly) {
    throw new KbtsError(`Kubernetes ${describeSpec(spec)} is not installed in ${join(root, "k8s")}`, {
      where: "--installed-only",
      fix: "run `kbts setup-envtest use` without -i to build it, or set KUBEBUILDER_ASSETS",
    });
  }

  mkdirSync(defaultRoot, { recursive: true });
  const release = await lock(defaultRoot, progress);
  try {
    // Another run may have finished while we waited.
    const now = findInstalled(spec, root, defaultRoot, env);
    if (now) return { dir: linkInto(now, root, env), version: now.version, source: "store" };
    const made = await obtain(spec, env, progress, options.download ?? env.KBTS_ENVTEST_DOWNLOAD !== "false");
    return { ...made, dir: linkInto({ dir: made.dir, version: made.version ?? "" }, root, env) };
  } finally {
    await release();
  }
}

/** `1.36` → the newest 1.36 patch the Go module proxy lists; offline, the spec stays (installed ones win). */
async function newestRelease(spec: VersionSpec, env: Env, progress: Progress): Promise<VersionSpec> {
  const go = findGo(env);
  if (!go) return spec;
  const work = cacheDir(env);
  mkdirSync(work, { recursive: true });
  try {
    const version = pickVersion(spec, await proxyVersions(go, work, env));
    return version ? { kind: "exact", version } : spec;
  } catch (err) {
    progress.line(
      `could not list Kubernetes releases (${firstLine(err)}); using the newest installed ${describeSpec(spec)}`,
    );
    return spec;
  }
}

function findInstalled(
  spec: VersionSpec,
  root: string,
  defaultRoot: string,
  env: Env,
): { dir: string; version: string } | undefined {
  for (const r of new Set([root, defaultRoot])) {
    const version = pickVersion(spec, installedVersions(r));
    if (version) return { dir: storeVersionDir(version, env, r), version };
  }
  return undefined;
}

/**
 * Adds the cluster-mode binaries to a release directory of the default store (building them under the
 * store lock), then links them into the answer's directory when that is another store (--bin-dir).
 */
async function withClusterBinaries(
  core: SetupResult,
  components: ClusterBinaryName[],
  options: SetupOptions,
): Promise<SetupResult> {
  const env = options.env ?? process.env;
  const progress = options.progress ?? new Progress();
  const wanted = componentFiles(components).join(", ");
  const version = core.version;
  if (!version) {
    throw new KbtsError(`${core.dir} has no ${missingComponents(core.dir, components).join(", ")}`, {
      where: "KUBEBUILDER_ASSETS",
      fix: "unset KUBEBUILDER_ASSETS so kbts builds them into the envtest store, or put them in that directory",
    });
  }
  if (options.installedOnly || env.ENVTEST_INSTALLED_ONLY === "true") {
    throw new KbtsError(`${wanted} for Kubernetes ${version} are not installed in ${core.dir}`, {
      where: "--installed-only",
      fix: "run `kbts setup-envtest use` without -i to build them",
    });
  }
  const go = findGo(env);
  if (!go) {
    throw new KbtsError(`no ${wanted} in ${core.dir}, and no \`go\` on PATH to build them`, {
      fix: "install Go >= 1.26 (https://go.dev/dl/) and rerun, or put the binaries there",
    });
  }
  const defaultRoot = storeRoot(env);
  const storeDir = storeVersionDir(version, env);
  const release = await lock(defaultRoot, progress);
  try {
    const missing = missingComponents(storeDir, components);
    if (missing.length > 0) {
      const work = join(cacheDir(env), version);
      mkdirSync(work, { recursive: true });
      const kwokVersions = missing.includes("kwok")
        ? [KWOK_VERSION, ...(await kwokFallback(go, work, env))]
        : [];
      try {
        await buildClusterBinaries({
          version,
          go,
          workDir: work,
          outDir: storeDir,
          progress,
          env,
          components: missing,
          kwokVersions,
        });
      } catch (err) {
        throw new KbtsError(
          `building ${missing.join(", ")} for Kubernetes ${version} from Go modules failed: ${err instanceof Error ? err.message : String(err)}`,
          {
            fix: "check network access to the Go module proxy (GOPROXY) and the Go version, or put the binaries in the release directory",
            cause: err,
          },
        );
      }
    }
  } finally {
    await release();
  }
  if (resolve(core.dir) !== resolve(storeDir)) linkFiles(storeDir, core.dir, componentFiles(components));
  return core;
}

/** The newest kwok of the minor before KWOK_VERSION, for when KWOK_VERSION does not build. */
async function kwokFallback(go: string, cwd: string, env: Env): Promise<string[]> {
  const [major = 0, minor = 0] = KWOK_VERSION.split(".").map(Number);
  if (minor === 0) return [];
  try {
    const out = await runGo(go, ["list", "-m", "-versions", "sigs.k8s.io/kwok"], {
      cwd,
      env: { GOFLAGS: "-mod=mod" },
      baseEnv: env,
    });
    const previous = pickVersion(
      { kind: "minor", major, minor: minor - 1 },
      out.trim().split(/\s+/).slice(1),
    );
    return previous ? [previous] : [];
  } catch {
    return [];
  }
}

/** Hard-links (or copies) names from one release directory into another. */
function linkFiles(from: string, to: string, names: readonly string[]): void {
  mkdirSync(to, { recursive: true });
  for (const name of names) {
    const target = join(to, name);
    rmSync(target, { force: true });
    try {
      linkSync(join(from, name), target);
    } catch {
      copyFileSync(join(from, name), target);
      chmodSync(target, 0o755);
    }
  }
}

/** With --bin-dir, the answer must live under it: hard-link (or copy) from the default store. */
function linkInto(found: { dir: string; version: string }, root: string, env: Env): string {
  const target = storeVersionDir(found.version, env, root);
  if (resolve(found.dir) === resolve(target)) return target;
  linkFiles(found.dir, target, BINARY_NAMES);
  return target;
}

async function lock(root: string, progress: Progress): Promise<() => Promise<void>> {
  const opts = { lockfilePath: join(root, ".kbts-setup-envtest.lock"), stale: 30_000, realpath: false };
  try {
    return await lockfile.lock(root, opts);
  } catch (err) {
    if ((err as { code?: string }).code !== "ELOCKED") throw err;
  }
  progress.line(`another setup-envtest is building; waiting for its lock (${opts.lockfilePath})`);
  return lockfile.lock(root, {
    ...opts,
    retries: { retries: 24 * 60 * 60, factor: 1, minTimeout: 1000, maxTimeout: 1000 },
  });
}

/** Download, else build with Go (falling back to the previous minor when a release does not build). */
async function obtain(
  spec: VersionSpec,
  env: Env,
  progress: Progress,
  download: boolean,
): Promise<SetupResult> {
  const go = findGo(env);
  const work = cacheDir(env);
  mkdirSync(work, { recursive: true });
  let version: string | undefined = spec.kind === "exact" ? spec.version : undefined;
  if (!version && go) {
    progress.line(
      `looking up the newest ${describeSpec(spec)} release (go list -m -versions k8s.io/kubernetes)`,
    );
    version = pickVersion(spec, await proxyVersions(go, work, env));
  }
  if (version && download) {
    const outDir = storeVersionDir(version, env);
    if (await tryDownload(version, goPlatform(), outDir, progress))
      return { dir: outDir, version, source: "download" };
  }
  if (!go) {
    throw new KbtsError(
      `no etcd, kube-apiserver and kubectl for Kubernetes ${describeSpec(spec)} in ${join(storeRoot(env), "k8s")}, and no \`go\` on PATH to build them`,
      {
        fix: "install Go >= 1.26 (https://go.dev/dl/) and rerun, or set KUBEBUILDER_ASSETS to a directory holding etcd, kube-apiserver and kubectl",
      },
    );
  }
  if (!version)
    throw new KbtsError(`the Go module proxy lists no Kubernetes ${describeSpec(spec)} release`, {
      where: "VERSION",
    });

  try {
    const outDir = storeVersionDir(version, env);
    await buildFromGoModules({ version, go, workDir: join(work, version), outDir, progress, env });
    return { dir: outDir, version, source: "build" };
  } catch (err) {
    const fallback = previousMinor(version);
    if (!fallback || err instanceof KbtsError) throw wrapBuildError(version, err);
    progress.line(
      `Kubernetes ${version} did not build (${firstLine(err)}); falling back to ${describeSpec(fallback)}`,
    );
    const listed = await proxyVersions(go, work, env).catch(() => [] as string[]);
    const previous = pickVersion(fallback, listed);
    if (!previous) throw wrapBuildError(version, err);
    const outDir = storeVersionDir(previous, env);
    try {
      await buildFromGoModules({
        version: previous,
        go,
        workDir: join(work, previous),
        outDir,
        progress,
        env,
      });
    } catch (err2) {
      throw wrapBuildError(previous, err2);
    }
    return { dir: outDir, version: previous, source: "build" };
  }
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0] ?? "";
}

function wrapBuildError(version: string, err: unknown): KbtsError {
  if (err instanceof KbtsError) return err;
  return new KbtsError(
    `building Kubernetes ${version} from Go modules failed: ${err instanceof Error ? err.message : String(err)}`,
    {
      fix: "check network access to the Go module proxy (GOPROXY) and the Go version (>= the release's go directive), or set KUBEBUILDER_ASSETS",
      cause: err,
    },
  );
}

/** Output as controller-runtime's setup-envtest prints it. */
export function formatResult(result: SetupResult, format: string): string {
  switch (format) {
    case "path":
      return result.dir; // no newline, as setup-envtest: made for $(...)
    case "env":
      return `export KUBEBUILDER_ASSETS='${result.dir.replace(/'/g, `'"'"'`)}'\n`;
    case "overview": {
      const { os, arch } = goPlatform();
      return `Version: ${result.version ?? "(from KUBEBUILDER_ASSETS)"}\nOS/Arch: ${os}/${arch}\nPath: ${result.dir}\n`;
    }
    default:
      throw new KbtsError(`unknown print format "${format}"`, {
        where: "--print",
        fix: "use overview, path or env",
      });
  }
}
