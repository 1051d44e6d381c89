/**
 * `kbts setup-envtest use` from the built CLI: one directory with executable, really-versioned binaries;
 * a second run answers from the store in under 2 seconds; formats as controller-runtime's setup-envtest;
 * with no binaries and no Go, one clear error.
 */
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCheckout } from "./support/build.js";
import { KBTS } from "./support/paths.js";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-setup-"));
// The user's own environment, minus the variables that would short-circuit the lookup.
const {
  KUBEBUILDER_ASSETS: _a,
  TEST_ASSET_ETCD: _e,
  TEST_ASSET_KUBE_APISERVER: _k,
  TEST_ASSET_KUBECTL: _c,
  ...clean
} = process.env;
const use = (args: string[], env: Record<string, string | undefined> = clean) =>
  execa(process.execPath, [KBTS, "setup-envtest", "use", ...args], { env, extendEnv: false, reject: false });

beforeAll(async () => {
  await buildCheckout();
  // Make sure the store holds the default release (builds it once on a cold machine).
  const r = await use(["-p", "path"]);
  expect(r.exitCode, r.stderr).toBe(0);
}, 3_600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("kbts setup-envtest use", () => {
  it("prints one directory holding executable etcd, kube-apiserver and kubectl of the real release", async () => {
    const r = await use(["1.36.3", "-p", "path"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/\/kubebuilder-envtest\/k8s\/1\.36\.3-linux-\w+$/);
    expect(r.stdout.split("\n")).toHaveLength(1);
    for (const b of ["etcd", "kube-apiserver", "kubectl"]) accessSync(join(r.stdout, b), constants.X_OK);
    expect((await execa(join(r.stdout, "kube-apiserver"), ["--version"])).stdout).toBe("Kubernetes v1.36.3");
    expect((await execa(join(r.stdout, "kubectl"), ["version", "--client"])).stdout).toContain(
      "Client Version: v1.36.3",
    );
    expect((await execa(join(r.stdout, "etcd"), ["--version"])).stdout).toMatch(/^etcd Version: 3\.6\.\d+/);
  });

  it("answers from the store in under 2 seconds, with only the answer on stdout", async () => {
    const t = Date.now();
    const r = await use(["1.36.3", "-p", "env"]);
    const elapsed = Date.now() - t;
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^export KUBEBUILDER_ASSETS='.*\/k8s\/1\.36\.3-linux-\w+'$/);
    expect(r.stderr).toBe("");
    expect(elapsed).toBeLessThan(2_000);
  });

  it("links into --bin-dir in the store layout, as kubebuilder Makefiles use it", async () => {
    const binDir = join(work, "bin");
    const r = await use(["1.36.3", "--bin-dir", binDir, "-p", "path"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${binDir}/k8s/1\\.36\\.3-linux-\\w+$`));
    accessSync(join(r.stdout, "kube-apiserver"), constants.X_OK);
  });

  it("with no binaries and no Go, says what to install or set, in one error", async () => {
    const empty = join(work, "empty");
    const r = await use(["1.36.3", "-p", "path"], {
      HOME: empty,
      XDG_DATA_HOME: join(empty, "data"),
      XDG_CACHE_HOME: join(empty, "cache"),
      PATH: "/nonexistent",
      KBTS_ENVTEST_DOWNLOAD: "false",
    });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    const [line, fix] = r.stderr.split("\n");
    expect(line).toMatch(
      /^error: no etcd, kube-apiserver and kubectl for Kubernetes 1\.36\.3 in .*, and no `go` on PATH/,
    );
    expect(fix).toMatch(/install Go .* or set KUBEBUILDER_ASSETS/);
  });
});
