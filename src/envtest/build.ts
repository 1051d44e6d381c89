import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ClusterBinaryName, KWOK_STAGES_FILE, KWOK_VERSION } from "@kbts/runtime/envtest";
import { runGo } from "./go.js";
import {
  etcdLdflags,
  etcdWrapperGoMod,
  type KubernetesGoMod,
  kubernetesLdflags,
  kubernetesWrapperGoMod,
  kwokLdflags,
  kwokWrapperGoMod,
  parseKubernetesGoMod,
  toolsGo,
} from "./gomod.js";
import type { Progress } from "./progress.js";

const APISERVER_PKG = "k8s.io/kubernetes/cmd/kube-apiserver";
const KUBECTL_PKG = "k8s.io/kubernetes/cmd/kubectl";
const ETCD_PKG = "go.etcd.io/etcd/server/v3";
const CONTROLLER_MANAGER_PKG = "k8s.io/kubernetes/cmd/kube-controller-manager";
const SCHEDULER_PKG = "k8s.io/kubernetes/cmd/kube-scheduler";
const KWOK_MODULE = "sigs.k8s.io/kwok";
const KWOK_PKG = "sigs.k8s.io/kwok/cmd/kwok";
/** kwok's stock stages (as `kwokctl` configures them): nodes become Ready and keep a lease; pods run, finish, go. */
const KWOK_STAGE_FILES = [
  "kustomize/stage/node/fast/node-initialize.yaml",
  "kustomize/stage/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml",
  "kustomize/stage/pod/fast/pod-ready.yaml",
  "kustomize/stage/pod/fast/pod-complete.yaml",
  "kustomize/stage/pod/fast/pod-delete.yaml",
];
const goEnv = { CGO_ENABLED: "0", GOFLAGS: "-mod=mod", GOWORK: "off" };

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
  const baseEnv = options.env ?? process.env;

  const kk = await readKubernetesModule(options, k8sDir);
  if (!kk.etcdVersion)
    throw new Error(`k8s.io/kubernetes ${v} go.mod does not require go.etcd.io/etcd/server/v3`);
  progress.line(
    `k8s.io/kubernetes ${v}: go ${kk.goDirective}, ${kk.stagingModules.length} staging modules, etcd ${kk.etcdVersion}`,
  );

  const staging = `${options.outDir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    await compileKubernetesCommands(options, k8sDir, kk, [APISERVER_PKG, KUBECTL_PKG], staging, {
      resolving: "resolving kube-apiserver and kubectl dependencies (go mod tidy)",
      compiling: "compiling kube-apiserver and kubectl (the longest step)",
    });

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

/**
 * Writes the wrapper module (its tools.go pins kube-apiserver and kubectl as well as packages, so the one
 * go.sum serves every build), tidies it and compiles packages into outDir, stamped with the release.
 */
async function compileKubernetesCommands(
  options: BuildOptions,
  k8sDir: string,
  kk: KubernetesGoMod,
  packages: string[],
  outDir: string,
  phases: { resolving: string; compiling: string },
): Promise<void> {
  const { go, progress, version } = options;
  const baseEnv = options.env ?? process.env;
  writeFileSync(join(k8sDir, "go.mod"), kubernetesWrapperGoMod(version, kk));
  writeFileSync(join(k8sDir, "tools.go"), toolsGo([...new Set([APISERVER_PKG, KUBECTL_PKG, ...packages])]));
  await progress.during(phases.resolving, runGo(go, ["mod", "tidy"], { cwd: k8sDir, env: goEnv, baseEnv }));
  const buildDate = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  await progress.during(
    phases.compiling,
    runGo(
      go,
      [
        "build",
        "-trimpath",
        "-ldflags",
        kubernetesLdflags(version, buildDate),
        "-o",
        `${outDir}/`,
        ...packages,
      ],
      { cwd: k8sDir, env: goEnv, baseEnv },
    ),
  );
}

/** Downloads k8s.io/kubernetes at options.version and reads what its wrapper module needs. */
async function readKubernetesModule(options: BuildOptions, k8sDir: string): Promise<KubernetesGoMod> {
  const v = `v${options.version.replace(/^v/, "")}`;
  const info = await options.progress.during(
    `downloading k8s.io/kubernetes ${v} from the Go module proxy`,
    runGo(options.go, ["mod", "download", "-json", `k8s.io/kubernetes@${v}`], {
      cwd: k8sDir,
      env: goEnv,
      baseEnv: options.env ?? process.env,
    }),
  );
  const goModPath = (JSON.parse(info) as { GoMod?: string }).GoMod;
  if (!goModPath) throw new Error(`go mod download gave no go.mod for k8s.io/kubernetes@${v}`);
  return parseKubernetesGoMod(readFileSync(goModPath, "utf8"));
}

export interface ClusterBuildOptions extends BuildOptions {
  /** Which of the cluster-mode binaries to build. */
  components: ClusterBinaryName[];
  /** kwok releases the proxy lists, newest last; the first that builds wins (default: KWOK_VERSION only). */
  kwokVersions?: string[];
}

/** What a cluster build put into outDir, with each binary's real version. */
export interface ClusterBuildResult {
  versions: Partial<Record<ClusterBinaryName, string>>;
}

/**
 * Builds kube-controller-manager and kube-scheduler from the same k8s.io/kubernetes wrapper module as
 * kube-apiserver, and kwok from sigs.k8s.io/kwok, into outDir beside etcd and kube-apiserver (each file
 * renamed in whole, so a failed build leaves the release directory as it was).
 */
export async function buildClusterBinaries(options: ClusterBuildOptions): Promise<ClusterBuildResult> {
  const { version, progress, components } = options;
  const v = `v${version.replace(/^v/, "")}`;
  const staging = `${options.outDir}.partial-cluster-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const versions: ClusterBuildResult["versions"] = {};
  try {
    const k8sCommands = components.filter((c) => c !== "kwok");
    if (k8sCommands.length > 0) {
      const k8sDir = join(options.workDir, "kubernetes");
      mkdirSync(k8sDir, { recursive: true });
      const kk = await readKubernetesModule(options, k8sDir);
      const packages = k8sCommands.map((c) =>
        c === "kube-controller-manager" ? CONTROLLER_MANAGER_PKG : SCHEDULER_PKG,
      );
      await compileKubernetesCommands(options, k8sDir, kk, packages, staging, {
        resolving: `resolving ${k8sCommands.join(" and ")} dependencies (go mod tidy)`,
        compiling: `compiling ${k8sCommands.join(" and ")}`,
      });
      for (const name of k8sCommands) {
        const reported = execFileSync(join(staging, name), ["--version"]).toString().trim();
        if (reported !== `Kubernetes ${v}`)
          throw new Error(`built ${name} reports "${reported}", expected Kubernetes ${v}`);
        versions[name] = reported;
      }
    }
    if (components.includes("kwok")) {
      versions.kwok = await buildKwok(options, staging);
    }
    for (const name of [...components, ...(components.includes("kwok") ? [KWOK_STAGES_FILE] : [])]) {
      if (name !== KWOK_STAGES_FILE) chmodSync(join(staging, name), 0o755);
      renameSync(join(staging, name), join(options.outDir, name));
    }
    progress.line(
      `built ${components.map((c) => `${c} (${versions[c]})`).join(", ")} into ${options.outDir}`,
    );
    return { versions };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** kwok at the first of kwokVersions that builds (newest first), plus its stock stages; returns `kwok vX`. */
async function buildKwok(options: ClusterBuildOptions, staging: string): Promise<string> {
  const { go, progress } = options;
  const baseEnv = options.env ?? process.env;
  const dir = join(options.workDir, "kwok");
  mkdirSync(dir, { recursive: true });
  const candidates = options.kwokVersions ?? [KWOK_VERSION];
  let lastError: unknown;
  for (const candidate of candidates) {
    const kv = `v${candidate.replace(/^v/, "")}`;
    try {
      const info = await progress.during(
        `downloading ${KWOK_MODULE} ${kv} from the Go module proxy`,
        runGo(go, ["mod", "download", "-json", `${KWOK_MODULE}@${kv}`], { cwd: dir, env: goEnv, baseEnv }),
      );
      const moduleDir = (JSON.parse(info) as { Dir?: string }).Dir;
      if (!moduleDir) throw new Error(`go mod download gave no directory for ${KWOK_MODULE}@${kv}`);
      const goDirective = /^go\s+(\S+)/m.exec(readFileSync(join(moduleDir, "go.mod"), "utf8"))?.[1];
      writeFileSync(join(dir, "go.mod"), kwokWrapperGoMod(kv, goDirective));
      writeFileSync(join(dir, "tools.go"), toolsGo([KWOK_PKG]));
      rmSync(join(dir, "go.sum"), { force: true });
      await progress.during(
        `resolving kwok ${kv} dependencies (go mod tidy)`,
        runGo(go, ["mod", "tidy"], { cwd: dir, env: goEnv, baseEnv }),
      );
      await progress.during(
        `compiling kwok ${kv}`,
        runGo(
          go,
          ["build", "-trimpath", "-ldflags", kwokLdflags(kv), "-o", join(staging, "kwok"), KWOK_PKG],
          {
            cwd: dir,
            env: goEnv,
            baseEnv,
          },
        ),
      );
      const stages = KWOK_STAGE_FILES.map((f) => readFileSync(join(moduleDir, f), "utf8").trim());
      writeFileSync(
        join(staging, KWOK_STAGES_FILE),
        `# kwok ${kv}'s stock stages (${KWOK_STAGE_FILES.join(", ")}), written by kbts setup-envtest\n${stages.join("\n---\n")}\n`,
      );
      const reported = execFileSync(join(staging, "kwok"), ["--version"]).toString().trim();
      if (!reported.includes(candidate.replace(/^v/, "")))
        throw new Error(`built kwok reports "${reported}", expected ${kv}`);
      return `kwok ${kv}`;
    } catch (err) {
      lastError = err;
      const next = candidates[candidates.indexOf(candidate) + 1];
      if (next)
        progress.line(`kwok ${kv} did not build (${firstLine(err)}); trying v${next.replace(/^v/, "")}`);
    }
  }
  throw lastError;
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0] ?? "";
}
