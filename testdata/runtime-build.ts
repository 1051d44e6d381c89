import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import lockfile from "proper-lockfile";
import { TSC } from "./typecheck.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/**
 * Builds @kbts/runtime (tsc -b runtime; a no-op when up to date). Unit tests that type-check scaffolded
 * projects resolve @kbts/runtime to its built dist/: they call this first, so they check against the
 * runtime's current sources, never a stale dist/ or none (where such a check used to be skipped).
 * Unit files run two at a time, so builds take the lock e2e/support/build.ts takes (same file, in the
 * temp dir): no file reads a dist/ another build is half-way through writing.
 */
export async function buildRuntime(): Promise<void> {
  const release = await lockfile.lock(REPO, {
    lockfilePath: join(
      tmpdir(),
      `kbts-e2e-build-${createHash("sha256").update(REPO).digest("hex").slice(0, 12)}.lock`,
    ),
    retries: { retries: 600, minTimeout: 200, maxTimeout: 1000 },
  });
  try {
    execFileSync(process.execPath, [TSC, "-b", join(REPO, "runtime")], { encoding: "utf8", stdio: "pipe" });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`building @kbts/runtime (tsc -b runtime) failed:\n${stdout ?? ""}${stderr ?? ""}`);
  } finally {
    await release();
  }
}
