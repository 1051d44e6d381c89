/**
 * Builds (once, cached) and runs the real controller-gen, the oracle every kbts manifests case is
 * checked against. The binary lives in the user cache, never in the repository; when Go is missing,
 * callers get a reason to print instead of a failure.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { cachedGoTool, type GoTool, type GoToolBinary, installGoTool } from "../../e2e/tools/go-tool.js";

export { goVersion } from "../../e2e/tools/go-tool.js";

const run = promisify(execFile);

export const CONTROLLER_GEN_VERSION = "v0.23.0";

/** Cached in ${XDG_CACHE_HOME:-~/.cache}/kbts/controller-gen/<version>/controller-gen (see go-tool.ts). */
export const CONTROLLER_GEN: GoTool = {
  label: `controller-gen ${CONTROLLER_GEN_VERSION}`,
  name: "controller-gen",
  stamp: CONTROLLER_GEN_VERSION,
  binary: "controller-gen",
  make: "make controller-gen",
  build: { install: `sigs.k8s.io/controller-tools/cmd/controller-gen@${CONTROLLER_GEN_VERSION}` },
  // controller-gen loads packages through the go command, so even a cached binary needs Go.
  goAtRunTime: true,
};

export type ControllerGen = GoToolBinary;

/**
 * The cached controller-gen binary, for tests: they never build it (`make tools` does, through
 * installControllerGen), so a missing binary or Go is a reason naming what to do.
 */
export async function cachedControllerGen(): Promise<ControllerGen> {
  return cachedGoTool(CONTROLLER_GEN);
}

/**
 * Builds controller-gen from the Go module proxy into the cache when it is missing (`make tools`,
 * the regen script and the benchmark).
 */
export function installControllerGen(): Promise<ControllerGen> {
  return installGoTool(CONTROLLER_GEN);
}

export interface RunOptions {
  /** The Go module root (testdata/markers). */
  moduleDir: string;
  /** A package pattern relative to moduleDir, e.g. "./01-basic/...". */
  packages: string;
  roleName?: string;
  allowDangerousTypes?: boolean;
}

export type RunResult = { ok: true; files: Map<string, string> } | { ok: false; error: string };

/**
 * Runs `controller-gen crd rbac webhook` on one package tree and returns what it wrote, keyed by the
 * paths kbts uses in a project (config/crd/bases/..., config/rbac/role.yaml, config/webhook/manifests.yaml).
 */
export async function runControllerGen(bin: string, opts: RunOptions): Promise<RunResult> {
  const out = mkdtempSync(join(tmpdir(), "kbts-cg-"));
  try {
    const crd = opts.allowDangerousTypes ? "crd:allowDangerousTypes=true" : "crd";
    const args = [
      crd,
      `rbac:roleName=${opts.roleName ?? "manager-role"}`,
      "webhook",
      `paths=${opts.packages}`,
      `output:crd:artifacts:config=${join(out, "config/crd/bases")}`,
      `output:rbac:artifacts:config=${join(out, "config/rbac")}`,
      `output:webhook:artifacts:config=${join(out, "config/webhook")}`,
    ];
    try {
      await run(bin, args, {
        cwd: opts.moduleDir,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, GOFLAGS: "" },
      });
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string; message: string };
      return { ok: false, error: (e.stderr || e.stdout || e.message).trim() };
    }
    return { ok: true, files: readTree(out) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Every file under dir, keyed by its /-separated path relative to dir. */
export function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.set(relative(dir, p).split("\\").join("/"), readFileSync(p, "utf8"));
    }
  };
  walk(dir);
  return files;
}
