import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_KUBERNETES_VERSION, storeVersionDir } from "@kbts/runtime/envtest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KbtsError } from "../errors.js";
import { KUBERNETES_VERSION } from "../version.js";
import { clusterComponents } from "./command.js";
import {
  etcdWrapperGoMod,
  kubernetesLdflags,
  kubernetesWrapperGoMod,
  kwokLdflags,
  kwokWrapperGoMod,
  parseKubernetesGoMod,
  stagingVersion,
} from "./gomod.js";
import { Progress } from "./progress.js";
import { formatResult, setupEnvtest } from "./setup.js";
import { clusterNodes } from "./start.js";
import { parseVersionSpec, pickVersion, previousMinor } from "./versions.js";

const testdata = join(import.meta.dirname, "testdata");

describe("versions", () => {
  it("parses exact releases and minors", () => {
    expect(parseVersionSpec("v1.36.3")).toEqual({ kind: "exact", version: "1.36.3" });
    expect(parseVersionSpec("1.36")).toEqual({ kind: "minor", major: 1, minor: 36 });
    expect(parseVersionSpec("1.36.x")).toEqual({ kind: "minor", major: 1, minor: 36 });
    expect(() => parseVersionSpec("latest-ish")).toThrow('invalid Kubernetes version "latest-ish"');
  });
  it("picks the newest stable patch of a minor, ignoring pre-releases", () => {
    const listed = ["v1.36.0", "v1.36.10", "v1.36.2", "v1.37.0-rc.1", "v1.35.9"];
    expect(pickVersion(parseVersionSpec("1.36"), listed)).toBe("1.36.10");
    expect(pickVersion(parseVersionSpec("1.37"), listed)).toBeUndefined();
    expect(pickVersion(parseVersionSpec("1.35.9"), listed)).toBe("1.35.9");
    expect(previousMinor("1.36.3")).toEqual({ kind: "minor", major: 1, minor: 35 });
  });
  it("defaults to the release kbts targets, the same in the CLI and the runtime", () => {
    expect(DEFAULT_KUBERNETES_VERSION).toBe(KUBERNETES_VERSION);
  });
});

describe("wrapper go.mod generation", () => {
  const kk = parseKubernetesGoMod(readFileSync(join(testdata, "kubernetes.go.mod"), "utf8"));

  it("reads the go and godebug lines, staging modules and the etcd server version", () => {
    expect(kk).toEqual({
      goDirective: "1.26.0",
      godebug: ["default=go1.26"],
      stagingModules: ["k8s.io/api", "k8s.io/apiserver", "k8s.io/streaming"],
      etcdVersion: "v3.6.8",
    });
  });

  it("replaces every staging module by its v0.Y.Z and keeps the release's go/godebug lines", () => {
    expect(stagingVersion("1.36.3")).toBe("v0.36.3");
    const text = kubernetesWrapperGoMod("1.36.3", kk);
    expect(text).toContain("go 1.26.0\n\ngodebug default=go1.26\n");
    expect(text).toContain("require k8s.io/kubernetes v1.36.3\n");
    expect(text).toContain("\tk8s.io/api => k8s.io/api v0.36.3\n");
    expect(text).toContain("\tk8s.io/streaming => k8s.io/streaming v0.36.3\n");
    expect(text).not.toContain("forked");
    expect(etcdWrapperGoMod("v3.6.8", "1.26.0")).toContain("require go.etcd.io/etcd/server/v3 v3.6.8\n");
  });

  it("stamps the release into component-base and client-go version packages", () => {
    const flags = kubernetesLdflags("1.36.3", "2026-01-01T00:00:00Z");
    for (const pkg of ["k8s.io/component-base/version", "k8s.io/client-go/pkg/version"]) {
      expect(flags).toContain(`-X ${pkg}.gitVersion=v1.36.3`);
      expect(flags).toContain(`-X ${pkg}.gitMajor=1`);
      expect(flags).toContain(`-X ${pkg}.gitMinor=36`);
    }
  });
});

describe("output formats", () => {
  const result = { dir: "/s/k8s/1.36.3-linux-amd64", version: "1.36.3", source: "store" as const };
  it("prints the bare path (no newline), a shell export, or an overview", () => {
    expect(formatResult(result, "path")).toBe("/s/k8s/1.36.3-linux-amd64");
    expect(formatResult(result, "env")).toBe("export KUBEBUILDER_ASSETS='/s/k8s/1.36.3-linux-amd64'\n");
    expect(formatResult({ ...result, dir: "/it's" }, "env")).toBe(`export KUBEBUILDER_ASSETS='/it'"'"'s'\n`);
    expect(formatResult(result, "overview")).toMatch(
      /^Version: 1\.36\.3\nOS\/Arch: linux\/\w+\nPath: \/s\/k8s/,
    );
    expect(() => formatResult(result, "json")).toThrow('unknown print format "json"');
  });
});

describe("setupEnvtest", () => {
  let tmp: string;
  let env: Record<string, string>;
  let log: string;
  let stderr: string;
  const progress = () => new Progress({ write: (s: string) => (stderr += s) });

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), "kbts-setup-test-"));
    const bin = join(tmp, "gobin");
    mkdirSync(bin);
    copyFileSync(join(testdata, "fake-go.sh"), join(bin, "go"));
    chmodSync(join(bin, "go"), 0o755);
    log = join(tmp, "go.log");
    stderr = "";
    env = {
      HOME: tmp,
      XDG_DATA_HOME: join(tmp, "data"),
      XDG_CACHE_HOME: join(tmp, "cache"),
      PATH: `${bin}:/usr/bin:/bin`,
      FAKE_GO_LOG: log,
      FAKE_KK_GOMOD: join(testdata, "kubernetes.go.mod"),
    };
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  const goCalls = () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []);

  it("builds into the store with a wrapper module, then answers from the store without running go", async () => {
    const first = await setupEnvtest({ version: "1.36.3", env, download: false, progress: progress() });
    const dir = storeVersionDir("1.36.3", env);
    expect(first).toEqual({ dir, version: "1.36.3", source: "build" });
    for (const b of ["etcd", "kube-apiserver", "kubectl"]) expect(existsSync(join(dir, b))).toBe(true);
    const wrapper = readFileSync(
      join(tmp, "cache", "kbts", "envtest-build", "1.36.3", "kubernetes", "go.mod"),
      "utf8",
    );
    expect(wrapper).toContain("k8s.io/apiserver => k8s.io/apiserver v0.36.3");
    expect(
      goCalls().some((c) => c.startsWith("build") && c.includes("k8s.io/kubernetes/cmd/kube-apiserver")),
    ).toBe(true);
    expect(goCalls().some((c) => c.startsWith("build") && c.includes("go.etcd.io/etcd/server/v3"))).toBe(
      true,
    );
    expect(stderr).toMatch(/setup-envtest \[\d+\.\ds\] compiling kube-apiserver and kubectl/);

    const callsBefore = goCalls().length;
    const second = await setupEnvtest({ version: "1.36.3", env, download: false, progress: progress() });
    expect(second).toEqual({ dir, version: "1.36.3", source: "store" });
    expect(goCalls().length).toBe(callsBefore);
  });

  it("resolves a minor to the newest patch the proxy lists", async () => {
    const result = await setupEnvtest({ version: "1.36", env, download: false, progress: progress() });
    expect(result.version).toBe("1.36.2");
    expect(goCalls()[0]).toBe("list -m -versions k8s.io/kubernetes");
  });

  it("prefers the newest patch the proxy lists over an older installed one, and uses the installed one with -i", async () => {
    const old = storeVersionDir("1.36.0", env);
    mkdirSync(old, { recursive: true });
    for (const b of ["etcd", "kube-apiserver", "kubectl"]) {
      writeFileSync(join(old, b), "#!/bin/sh\n");
      chmodSync(join(old, b), 0o755);
    }
    expect((await setupEnvtest({ version: "1.36", env, installedOnly: true })).version).toBe("1.36.0");
    expect(goCalls()).toEqual([]);
    const result = await setupEnvtest({ version: "1.36", env, download: false, progress: progress() });
    expect(result).toMatchObject({ version: "1.36.2", source: "build" });
  });

  it("never builds twice when two runs race: the second waits for the lock and answers from the store", async () => {
    const slow = { ...env, FAKE_GO_BUILD_SECONDS: "1" };
    const [a, b] = await Promise.all([
      setupEnvtest({ version: "1.36.3", env: slow, download: false, progress: progress() }),
      setupEnvtest({ version: "1.36.3", env: slow, download: false, progress: progress() }),
    ]);
    expect(a.dir).toBe(b.dir);
    expect([a.source, b.source].sort()).toEqual(["build", "store"]);
    expect(goCalls().filter((c) => c.includes("cmd/kube-apiserver") && c.startsWith("build"))).toHaveLength(
      1,
    );
    expect(stderr).toContain("waiting for its lock");
  });

  it("falls back to the previous minor when a release does not build, and says so", async () => {
    // tidy fails for every version here, so the fallback fails too: the error names the fallback release.
    await expect(
      setupEnvtest({
        version: "1.36.3",
        env: { ...env, FAKE_GO_FAIL_TIDY: "1" },
        download: false,
        progress: progress(),
      }),
    ).rejects.toThrow(
      /building Kubernetes 1\.35\.4 from Go modules failed: go mod tidy failed \(exit 1\): go: tidy exploded/,
    );
    expect(stderr).toContain(
      "Kubernetes 1.36.3 did not build (go mod tidy failed (exit 1): go: tidy exploded); falling back to 1.35.x",
    );
  });

  it("uses KUBEBUILDER_ASSETS when it holds all three binaries", async () => {
    const assets = join(tmp, "assets");
    mkdirSync(assets);
    for (const b of ["etcd", "kube-apiserver", "kubectl"]) {
      writeFileSync(join(assets, b), "#!/bin/sh\n");
      chmodSync(join(assets, b), 0o755);
    }
    const result = await setupEnvtest({ env: { ...env, KUBEBUILDER_ASSETS: assets }, download: false });
    expect(result).toEqual({ dir: assets, version: undefined, source: "env" });
    expect(goCalls()).toEqual([]);
  });

  it("links the binaries under --bin-dir in the store layout", async () => {
    await setupEnvtest({ version: "1.36.3", env, download: false, progress: progress() });
    const binDir = join(tmp, "bin");
    const result = await setupEnvtest({ version: "1.36.3", env, binDir, download: false });
    expect(result.dir).toBe(storeVersionDir("1.36.3", env, binDir));
    expect(existsSync(join(result.dir, "kube-apiserver"))).toBe(true);
  });

  it("with no binaries and no Go, says to install Go or set KUBEBUILDER_ASSETS", async () => {
    const noGo = { ...env, PATH: "/nonexistent" };
    const err = await setupEnvtest({ env: noGo, download: false }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /no etcd, kube-apiserver and kubectl for Kubernetes 1\.36\.3 in .*, and no `go` on PATH/,
    );
    expect((err as { fix: string }).fix).toMatch(/install Go .* or set KUBEBUILDER_ASSETS/);
  });

  it("with -i, fails instead of building", async () => {
    await expect(setupEnvtest({ env, installedOnly: true, download: false })).rejects.toThrow(
      /is not installed in/,
    );
    expect(goCalls()).toEqual([]);
  });
});

describe("cluster-mode components", () => {
  it("--cluster asks for all three; --with names some, comma-separated or repeated", () => {
    expect(clusterComponents([], true)).toEqual(["kube-controller-manager", "kube-scheduler", "kwok"]);
    expect(clusterComponents(["kwok,kube-scheduler"], false)).toEqual(["kube-scheduler", "kwok"]);
    expect(clusterComponents(["kwok", "kwok"], false)).toEqual(["kwok"]);
    expect(clusterComponents([], false)).toEqual([]);
  });
  it("refuses an unknown component, naming --with and the known ones", () => {
    expect(() => clusterComponents(["kubelet"], false)).toThrow('unknown component "kubelet"');
  });
  it("builds kwok from a wrapper module stamped with its release", () => {
    const mod = kwokWrapperGoMod("v0.8.0", "1.26.0");
    expect(mod).toContain("require sigs.k8s.io/kwok v0.8.0");
    expect(mod).toContain("go 1.26.0");
    expect(kwokLdflags("v0.8.0")).toContain("-X sigs.k8s.io/kwok/pkg/consts.Version=0.8.0");
  });
  it("plain --nodes/--node-capacity become simulated nodes; bad ones name their flag", () => {
    expect(clusterNodes({})).toBeUndefined();
    expect(clusterNodes({ nodes: "2", nodeCapacity: "nvidia.com/gpu=4" })).toEqual([
      { name: "kwok-node-0", capacity: { "nvidia.com/gpu": "4" } },
      { name: "kwok-node-1", capacity: { "nvidia.com/gpu": "4" } },
    ]);
    expect(() => clusterNodes({ nodes: "0" })).toThrow('invalid node count "0"');
    expect(() => clusterNodes({ nodeCapacity: "cpu=1" })).toThrow("--node-capacity needs --nodes");
    expect(() => clusterNodes({ nodes: "1", nodeCapacity: "gpu" })).toThrow(KbtsError);
  });
});
