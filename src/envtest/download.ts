import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import type { Progress } from "./progress.js";

/** controller-tools publishes the envtest release index here (archives with sha512 sums). */
export const ENVTEST_INDEX_URL =
  "https://raw.githubusercontent.com/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml";

export interface ArchiveRef {
  url: string;
  sha512: string;
}

/** Finds envtest-v<ver>-<os>-<arch>.tar.gz in the index YAML. */
export function findArchive(
  indexYAML: string,
  version: string,
  os: string,
  arch: string,
): ArchiveRef | undefined {
  const index = parse(indexYAML) as {
    releases?: Record<string, Record<string, { hash?: string; selfLink?: string }>>;
  };
  const v = `v${version.replace(/^v/, "")}`;
  const entry = index.releases?.[v]?.[`envtest-${v}-${os}-${arch}.tar.gz`];
  return entry?.selfLink && entry.hash ? { url: entry.selfLink, sha512: String(entry.hash) } : undefined;
}

/**
 * Tries the official envtest archive for version; false (with one progress line saying why) when it
 * cannot be had quickly, e.g. offline.
 */
export async function tryDownload(
  version: string,
  platform: { os: string; arch: string },
  outDir: string,
  progress: Progress,
  options: { timeoutMs?: number; fetch?: typeof fetch } = {},
): Promise<boolean> {
  const get = options.fetch ?? fetch;
  try {
    const indexRes = await get(ENVTEST_INDEX_URL, {
      signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
    });
    if (!indexRes.ok) throw new Error(`HTTP ${indexRes.status} from ${ENVTEST_INDEX_URL}`);
    const index = await indexRes.text();
    const ref = findArchive(index, version, platform.os, platform.arch);
    if (!ref) {
      progress.line(`the envtest release index has no ${version} for ${platform.os}/${platform.arch}`);
      return false;
    }
    progress.line(`downloading ${ref.url}`);
    const res = await get(ref.url, { signal: AbortSignal.timeout(300_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const archive = Buffer.from(await res.arrayBuffer());
    const sum = createHash("sha512").update(archive).digest("hex");
    if (sum !== ref.sha512) throw new Error(`sha512 mismatch for ${ref.url}`);
    extractFlattened(archive, outDir);
    return true;
  } catch (err) {
    const reason =
      err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    progress.line(`official envtest download unavailable (${reason}); building from Go modules instead`);
    return false;
  }
}

/** Extracts the archive and keeps only the binaries' base names, as setup-envtest does. */
function extractFlattened(archive: Buffer, outDir: string): void {
  const tmp = mkdtempSync(join(tmpdir(), "kbts-envtest-dl-"));
  try {
    writeFileSync(join(tmp, "a.tar.gz"), archive);
    mkdirSync(join(tmp, "x"));
    execFileSync("tar", ["-xzf", join(tmp, "a.tar.gz"), "-C", join(tmp, "x")]);
    const staging = `${outDir}.partial-${process.pid}`;
    mkdirSync(staging, { recursive: true });
    const walk = (dir: string) => {
      for (const e of readdirSync(dir)) {
        const p = join(dir, e);
        if (statSync(p).isDirectory()) walk(p);
        else if (["etcd", "kube-apiserver", "kubectl"].includes(e)) {
          renameSync(p, join(staging, e));
          chmodSync(join(staging, e), 0o755);
        }
      }
    };
    walk(join(tmp, "x"));
    rmSync(outDir, { recursive: true, force: true });
    renameSync(staging, outDir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
