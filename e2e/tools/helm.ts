/**
 * helm, the real one, as a test tool: `make helm` (part of `make tools`) builds it once from the Go
 * module proxy into ${XDG_CACHE_HOME:-~/.cache}/kbts/helm/<version>/helm; tests only look it up and
 * never build it. Run directly (`node --import tsx e2e/tools/helm.ts`) it installs when missing and
 * prints the binary's path.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const HELM_VERSION = "v3.22.0";

/** Where the binary is cached, by version. */
export function helmDir(): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cache, "kbts", "helm", HELM_VERSION);
}

/** The cached helm, or an error naming the step that builds it (tests call this). */
export function cachedHelm(): string {
  const bin = join(helmDir(), "helm");
  if (!existsSync(bin)) {
    throw new Error(
      `helm ${HELM_VERSION} is not built (${bin} is missing): run \`make helm\` (or \`make tools\`) first`,
    );
  }
  return bin;
}

/** Builds helm into the cache when missing: `go install` into a temporary folder, then one rename. */
export async function installHelm(): Promise<string> {
  const dir = helmDir();
  const bin = join(dir, "helm");
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  const staging = mkdtempSync(join(dir, ".build-"));
  try {
    await promisify(execFile)("go", ["install", `helm.sh/helm/v3/cmd/helm@${HELM_VERSION}`], {
      env: { ...process.env, GOBIN: staging, GOFLAGS: "-mod=mod" },
      maxBuffer: 64 * 1024 * 1024,
    });
    renameSync(join(staging, "helm"), bin);
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(
      `go install helm.sh/helm/v3/cmd/helm@${HELM_VERSION} failed: ${(e.stderr || e.message).trim()}`,
    );
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return bin;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  installHelm().then(
    (bin) => process.stdout.write(`helm ${HELM_VERSION}: ${bin}\n`),
    (err: Error) => {
      process.stderr.write(`error: ${err.message}\n`);
      process.exit(1);
    },
  );
}
