import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runGo } from "./go.js";
import {
  etcdLdflags,
  etcdWrapperGoMod,
  kubernetesLdflags,
  kubernetesWrapperGoMod,
  parseKubernetesGoMod,
  toolsGo,
} from "./gomod.js";
import type { Progress } from "./progress.js";

const APISERVER_PKG = "k8s.io/kubernetes/cmd/kube-apiserver";
const KUBECTL_PKG = "k8s.io/kubernetes/cmd/kubectl";
const ETCD_PKG = "go.etcd.io/etcd/server/v3";

export interface BuildOptions {
  /** Kubernetes release, e.g. 1.36.3. */
  version: string;
  go: string;
  /** Where the wrapper modules live (kept between runs: go.sum and Go's build cache make rebuilds fast). */
  workDir: string;
  /** Final directory for etcd, kube-apiserver and kubectl; filled atomically. */
  outDir: string;
  progress: Progress;
  /** Environment go runs with (default process.env). */
  env?: Record<string, string | undefined>;
}

/**
 * Builds kube-apiserver and kubectl from k8s.io/kubernetes at version (wrapper module, staging modules
 * replaced by their v0.Y.Z), and etcd from go.etcd.io/etcd/server/v3 at the version that release requires.
 */
export async function buildFromGoModules(options: BuildOptions): Promise<void> {
  const { version, go, progress } = options;
  const v = `v${version.replace(/^v/, "")}`;
  const k8sDir = join(options.workDir, "kubernetes");
  const etcdDir = join(options.workDir, "etcd");
  mkdirSync(k8sDir, { recursive: true });
  mkdirSync(etcdDir, { recursive: true });
  const goEnv = { CGO_ENABLED: "0", GOFLAGS: "-mod=mod", GOWORK: "off" };
  const baseEnv = options.env ?? process.env;

  const info = await progress.during(
    `downloading k8s.io/kubernetes ${v} from the Go module proxy`,
    runGo(go, ["mod", "download", "-json", `k8s.io/kubernetes@${v}`], { cwd: k8sDir, env: goEnv, baseEnv }),
  );
  const goModPath = (JSON.parse(info) as { GoMod?: string }).GoMod;
  if (!goModPath) throw new Error(`go mod download gave no go.mod for k8s.io/kubernetes@${v}`);
  const kk = parseKubernetesGoMod(readFileSync(goModPath, "utf8"));
  if (!kk.etcdVersion)
    throw new Error(`k8s.io/kubernetes ${v} go.mod does not require go.etcd.io/etcd/server/v3`);
  progress.line(
    `k8s.io/kubernetes ${v}: go ${kk.goDirective}, ${kk.stagingModules.length} staging modules, etcd ${kk.etcdVersion}`,
  );

  const staging = `${options.outDir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    writeFileSync(join(k8sDir, "go.mod"), kubernetesWrapperGoMod(version, kk));
    writeFileSync(join(k8sDir, "tools.go"), toolsGo([APISERVER_PKG, KUBECTL_PKG]));
    await progress.during(
      "resolving kube-apiserver and kubectl dependencies (go mod tidy)",
      runGo(go, ["mod", "tidy"], { cwd: k8sDir, env: goEnv, baseEnv }),
    );
    const buildDate = new Date().toISOString().replace(/\.\d+Z$/, "Z");
    await progress.during(
      "compiling kube-apiserver and kubectl (the longest step)",
      runGo(
        go,
        [
          "build",
          "-trimpath",
          "-ldflags",
          kubernetesLdflags(version, buildDate),
          "-o",
          `${staging}/`,
          APISERVER_PKG,
          KUBECTL_PKG,
        ],
        { cwd: k8sDir, env: goEnv, baseEnv },
      ),
    );

    writeFileSync(join(etcdDir, "go.mod"), etcdWrapperGoMod(kk.etcdVersion, kk.goDirective));
    writeFileSync(join(etcdDir, "tools.go"), toolsGo([ETCD_PKG]));
    await progress.during(
      `resolving etcd ${kk.etcdVersion} dependencies (go mod tidy)`,
      runGo(go, ["mod", "tidy"], { cwd: etcdDir, env: goEnv, baseEnv }),
    );
    await progress.during(
      `compiling etcd ${kk.etcdVersion}`,
      runGo(
        go,
        [
          "build",
          "-trimpath",
          "-ldflags",
          etcdLdflags(kk.etcdVersion),
          "-o",
          join(staging, "etcd"),
          ETCD_PKG,
        ],
        { cwd: etcdDir, env: goEnv, baseEnv },
      ),
    );

    const reported = execFileSync(join(staging, "kube-apiserver"), ["--version"]).toString().trim();
    if (reported !== `Kubernetes ${v}`)
      throw new Error(`built kube-apiserver reports "${reported}", expected Kubernetes ${v}`);
    for (const name of ["etcd", "kube-apiserver", "kubectl"]) chmodSync(join(staging, name), 0o755);
    rmSync(options.outDir, { recursive: true, force: true });
    renameSync(staging, options.outDir);
    progress.line(`built ${reported}, etcd ${kk.etcdVersion} into ${options.outDir}`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
