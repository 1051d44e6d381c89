import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ENVTEST_INDEX_URL, findArchive, tryDownload } from "./download.js";
import { Progress } from "./progress.js";

const ARCHIVE_URL = "https://example.invalid/envtest-v1.36.3-linux-amd64.tar.gz";

describe("envtest release download (no network: fetch is faked)", () => {
  let tmp: string;
  let archive: Buffer;
  let lines: string;
  const progress = () => new Progress({ write: (s: string) => (lines += s) });
  const index = (sha512: string) =>
    `releases:\n  v1.36.3:\n    envtest-v1.36.3-linux-amd64.tar.gz:\n      hash: ${sha512}\n      selfLink: ${ARCHIVE_URL}\n`;
  const fakeFetch =
    (indexText: string): typeof fetch =>
    async (input) => {
      const url = String(input);
      if (url === ENVTEST_INDEX_URL) return new Response(indexText);
      if (url === ARCHIVE_URL) return new Response(new Uint8Array(archive));
      return new Response("not found", { status: 404 });
    };

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), "kbts-dl-test-"));
    lines = "";
    // Laid out as upstream archives are: controller-tools/envtest/<binary>.
    const src = join(tmp, "src", "controller-tools", "envtest");
    mkdirSync(src, { recursive: true });
    for (const b of ["etcd", "kube-apiserver", "kubectl"])
      writeFileSync(join(src, b), `#!/bin/sh\necho ${b}\n`);
    execFileSync("tar", ["-czf", join(tmp, "a.tar.gz"), "-C", join(tmp, "src"), "controller-tools"]);
    archive = readFileSync(join(tmp, "a.tar.gz"));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it("finds the archive of a release and platform in the index", () => {
    expect(findArchive(index("abc"), "1.36.3", "linux", "amd64")).toEqual({
      url: ARCHIVE_URL,
      sha512: "abc",
    });
    expect(findArchive(index("abc"), "1.36.3", "darwin", "arm64")).toBeUndefined();
  });

  it("checks the sha512 and extracts the binaries flattened into the store dir", async () => {
    const sha = createHash("sha512").update(archive).digest("hex");
    const out = join(tmp, "k8s", "1.36.3-linux-amd64");
    const ok = await tryDownload("1.36.3", { os: "linux", arch: "amd64" }, out, progress(), {
      fetch: fakeFetch(index(sha)),
    });
    expect(ok).toBe(true);
    expect(readdirSync(out).sort()).toEqual(["etcd", "kube-apiserver", "kubectl"]);
    expect(execFileSync(join(out, "kube-apiserver")).toString()).toBe("kube-apiserver\n");
  });

  it("refuses an archive whose sha512 does not match, saying so in one line", async () => {
    const out = join(tmp, "k8s", "1.36.3-linux-amd64");
    const ok = await tryDownload("1.36.3", { os: "linux", arch: "amd64" }, out, progress(), {
      fetch: fakeFetch(index("f".repeat(128))),
    });
    expect(ok).toBe(false);
    expect(existsSync(out)).toBe(false);
    expect(lines).toMatch(
      /official envtest download unavailable \(sha512 mismatch .*\); building from Go modules instead\n$/,
    );
  });

  it("gives up within the timeout when the index does not answer", async () => {
    const hang: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
      );
    const t = Date.now();
    const ok = await tryDownload("1.36.3", { os: "linux", arch: "amd64" }, join(tmp, "out"), progress(), {
      fetch: hang,
      timeoutMs: 200,
    });
    expect(ok).toBe(false);
    expect(Date.now() - t).toBeLessThan(2_000);
    expect(lines.split("\n").filter(Boolean)).toHaveLength(1);
  });
});
