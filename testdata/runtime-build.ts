import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/**
 * Builds @kbts/runtime (tsc -b runtime; a no-op when up to date). Unit tests that type-check scaffolded
 * projects resolve @kbts/runtime to its built dist/: they call this first, so they check against the
 * runtime's current sources, never a stale dist/ or none (where such a check used to be skipped).
 */
export function buildRuntime(): void {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const runtime = fileURLToPath(new URL("../runtime", import.meta.url));
  try {
    execFileSync(process.execPath, [tsc, "-b", runtime], { encoding: "utf8", stdio: "pipe" });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`building @kbts/runtime (tsc -b runtime) failed:\n${stdout ?? ""}${stderr ?? ""}`);
  }
}
