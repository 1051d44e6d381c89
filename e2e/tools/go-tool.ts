/**
 * A tool built with Go into the user cache: helm, controller-gen, the Go GPUBudget operator. Each is
 * built once, by its make target (`make tools` and its parts, `make bench-go-operator`), into
 * ${XDG_CACHE_HOME:-~/.cache}/kbts/<name>/<stamp>/<binary>, where the stamp is the version built (or a
 * hash of the local sources), so another version builds beside it and an unchanged one is reused.
 * Tests and benches only look the binary up (cachedGoTool) and never build it.
 *
 * The build runs under a lock on the tool's folder (concurrent callers wait, one go runs), into a
 * staging folder beside the binary, which is renamed into place only once complete. Go is found and
 * run as setup-envtest runs it (src/envtest/go.ts), so a failure is one error with go's last lines.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import lockfile from "proper-lockfile";
import { findGo, runGo } from "../../src/envtest/go.js";
import { Progress } from "../../src/envtest/progress.js";

export interface GoTool {
  /** What messages call it, e.g. "helm v3.22.0". */
  label: string;
  /** Its folder under kbts/ in the user cache, e.g. "helm". */
  name: string;
  /** The version built, or a stamp of the sources built: the folder below name. */
  stamp: string;
  /** The binary's file name. */
  binary: string;
  /** The make target that builds it, which a missing binary names, e.g. "make helm". */
  make: string;
  /**
   * `go install <package>@<version>` from the Go module proxy, or `go build` of a package of a
   * local module (its go.mod and go.sum decide the versions).
   */
  build: { install: string } | { module: string; package: string };
  /** The binary runs the go command itself (controller-gen loads packages with it). */
  goAtRunTime?: boolean;
}

export type GoToolBinary = { ok: true; bin: string } | { ok: false; reason: string };

/** ${XDG_CACHE_HOME:-~/.cache}/kbts/<name>/<stamp> */
export function goToolDir(tool: GoTool): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cache, "kbts", tool.name, tool.stamp);
}

export function goToolBin(tool: GoTool): string {
  return join(goToolDir(tool), tool.binary);
}

/** Go's version line, or undefined when no `go` is on PATH. */
export async function goVersion(): Promise<string | undefined> {
  try {
    const { stdout } = await promisify(execFile)("go", ["version"]);
    return stdout.trim();
  } catch {
    return undefined;
  }
}

function noGo(tool: GoTool): string {
  const what = tool.goAtRunTime ? "built or run" : "built";
  return `go not on PATH, so ${tool.label} cannot be ${what}: install Go, then run \`${tool.make}\``;
}

/** The cached binary, or a reason naming what to do: tests and benches call this, never installGoTool. */
export function cachedGoTool(tool: GoTool): GoToolBinary {
  const bin = goToolBin(tool);
  const exists = existsSync(bin);
  if ((tool.goAtRunTime || !exists) && findGo() === undefined) return { ok: false, reason: noGo(tool) };
  if (!exists) {
    return {
      ok: false,
      reason: `${tool.label} is not built (${bin} is missing): run \`${tool.make}\` first`,
    };
  }
  return { ok: true, bin };
}

/**
 * The go command line that builds the tool into outDir. `-trimpath` keeps file-system paths out of the
 * binary and out of Go's build cache keys: without it every compile is keyed by where the module
 * cache or checkout sits, so make test's fresh clone (an empty GOMODCACHE of its own) recompiled helm
 * and controller-gen from nothing, ~165 CPU-s, although the user's build cache held the same packages.
 */
function goBuildArgs(tool: GoTool, outDir: string): string[] {
  return "install" in tool.build
    ? ["install", "-trimpath", tool.build.install]
    : ["build", "-trimpath", "-o", join(outDir, tool.binary), tool.build.package];
}

/**
 * Builds the tool into the cache when it is missing (its make target runs this). With a Progress,
 * says what it builds and keeps saying it while go runs.
 */
export async function installGoTool(tool: GoTool, progress?: Progress): Promise<GoToolBinary> {
  const cached = cachedGoTool(tool);
  if (cached.ok) return cached;
  const go = findGo();
  if (go === undefined) return cached;
  const dir = goToolDir(tool);
  const bin = join(dir, tool.binary);
  mkdirSync(dir, { recursive: true });
  const release = await lockfile.lock(dir, { retries: { retries: 1200, minTimeout: 500, maxTimeout: 1000 } });
  let staging: string | undefined;
  try {
    // Another caller may have built it while this one waited for the lock.
    if (!existsSync(bin)) {
      staging = mkdtempSync(join(dir, ".build-"));
      const args = goBuildArgs(tool, staging);
      const build =
        "install" in tool.build
          ? // cwd outside any module, so only the module proxy decides what is built.
            runGo(go, args, { cwd: staging, env: { GOBIN: staging, GOFLAGS: "-mod=mod" } })
          : runGo(go, args, { cwd: tool.build.module });
      await (progress ? progress.during(`building ${tool.label} (go ${args.join(" ")})`, build) : build);
      renameSync(join(staging, tool.binary), bin);
    }
  } catch (err) {
    return { ok: false, reason: `${tool.label}: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    if (staging) rmSync(staging, { recursive: true, force: true });
    await release();
  }
  return { ok: true, bin };
}

/**
 * What a make target runs: builds the tool when missing, with progress on stderr, and prints the
 * binary's path on stdout; exits 1 with one line saying why when it cannot.
 */
export async function installGoToolOrExit(tool: GoTool): Promise<string> {
  const result = await installGoTool(tool, new Progress(process.stderr, tool.name));
  if (!result.ok) {
    process.stderr.write(`error: ${result.reason}\n`);
    process.exit(1);
  }
  process.stdout.write(`${tool.label}: ${result.bin}\n`);
  return result.bin;
}
