/**
 * The Go baseline of `bench/gpubudget --compare-go`: the GPUBudget operator ported to controller-runtime
 * in a Kubebuilder v4.16 scaffold (bench/gpubudget/go), built like controller-gen, as a tool: once, by
 * `make bench-go-operator`, into the user cache under a stamp of its sources, never at bench time.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import lockfile from "proper-lockfile";
import { goVersion } from "../../testdata/controller-gen/index.js";

const run = promisify(execFile);

/** The fixture: a Kubebuilder v4.16.0 scaffold with the GPUBudget reconciler ported to Go. */
export const GO_OPERATOR_SOURCE = fileURLToPath(new URL("./go/", import.meta.url));

export const BUILD_TARGET = "make bench-go-operator";

/** The fixture's source files (go.mod, go.sum, *.go), sorted, relative to GO_OPERATOR_SOURCE. */
function sourceFiles(dir = GO_OPERATOR_SOURCE): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "bin") walk(p);
      } else if (/^go\.(mod|sum)$|\.go$/.test(entry.name)) {
        out.push(relative(GO_OPERATOR_SOURCE, p));
      }
    }
  };
  walk(dir);
  return out.sort();
}

/** A stamp of the fixture's sources: any edit builds a new binary, an unchanged tree reuses the cached one. */
export function goOperatorStamp(): string {
  const hash = createHash("sha256");
  for (const file of sourceFiles()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(GO_OPERATOR_SOURCE, file)));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

/** ${XDG_CACHE_HOME:-~/.cache}/kbts/gpubudget-go/<stamp>/manager */
export function goOperatorBin(): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cache, "kbts", "gpubudget-go", goOperatorStamp(), "manager");
}

export type GoOperator = { ok: true; bin: string } | { ok: false; reason: string };

/**
 * The cached binary, for the bench: it never builds (the make target does), so a missing Go or binary
 * is a reason naming what to do.
 */
export async function cachedGoOperator(): Promise<GoOperator> {
  const bin = goOperatorBin();
  if ((await goVersion()) === undefined) {
    return {
      ok: false,
      reason: `go not on PATH, so the Go operator cannot be built: install Go, then run \`${BUILD_TARGET}\``,
    };
  }
  if (!existsSync(bin)) {
    return { ok: false, reason: `the Go operator is not built (${bin} is missing): run \`${BUILD_TARGET}\`` };
  }
  return { ok: true, bin };
}

/**
 * Builds the operator into the cache when it is missing (`make bench-go-operator`): `go build` of
 * ./cmd, modules from the Go module proxy. Concurrent callers serialise on a lock; the binary appears
 * under its final name only once complete.
 */
export async function installGoOperator(): Promise<GoOperator> {
  const cached = await cachedGoOperator();
  if (cached.ok || (await goVersion()) === undefined) return cached;
  const bin = goOperatorBin();
  const dir = join(bin, "..");
  mkdirSync(dir, { recursive: true });
  const release = await lockfile.lock(dir, { retries: { retries: 1200, minTimeout: 500, maxTimeout: 1000 } });
  const partial = `${bin}.partial`;
  try {
    if (!existsSync(bin)) {
      await run("go", ["build", "-o", partial, "./cmd"], {
        cwd: GO_OPERATOR_SOURCE,
        maxBuffer: 64 * 1024 * 1024,
      });
      renameSync(partial, bin);
    }
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    return {
      ok: false,
      reason: `go build of ${GO_OPERATOR_SOURCE} failed: ${(e.stderr || e.message).trim()}`,
    };
  } finally {
    rmSync(partial, { force: true });
    await release();
  }
  return { ok: true, bin };
}
