import { homedir } from "node:os";
import { join } from "node:path";

/** The Kubernetes release envtest uses when none is asked for (kept equal to the CLI's KUBERNETES_VERSION). */
export const DEFAULT_KUBERNETES_VERSION = "1.36.3";

export const BINARY_NAMES = ["etcd", "kube-apiserver", "kubectl"] as const;
export type BinaryName = (typeof BINARY_NAMES)[number];

/**
 * What envtest's cluster mode adds: the scheduler, the controller manager and kwok (simulated kubelets).
 * Built only when first asked for, into the same release directory as the others.
 */
export const CLUSTER_BINARY_NAMES = ["kube-controller-manager", "kube-scheduler", "kwok"] as const;
export type ClusterBinaryName = (typeof CLUSTER_BINARY_NAMES)[number];

/** The kwok release cluster mode builds (sigs.k8s.io/kwok); the previous minor is the fallback. */
export const KWOK_VERSION = "0.8.0";
/** kwok's stock node and pod stages, copied from its module beside the kwok binary at build time. */
export const KWOK_STAGES_FILE = "kwok-stages.yaml";

type Env = Record<string, string | undefined>;

/** `TEST_ASSET_KUBE_APISERVER` for `kube-apiserver`, as controller-runtime names them. */
export function assetEnvVar(name: BinaryName | ClusterBinaryName): string {
  return `TEST_ASSET_${name.toUpperCase().replace(/-/g, "_")}`;
}

/** Go's GOOS/GOARCH for this machine: the store and release archives are named with them. */
export function goPlatform(): { os: string; arch: string } {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = ({ x64: "amd64", arm64: "arm64", ppc64: "ppc64le", s390x: "s390x" } as Record<string, string>)[
    process.arch
  ];
  return { os, arch: arch ?? process.arch };
}

/** setup-envtest's store root: `${XDG_DATA_HOME:-~/.local/share}/kubebuilder-envtest` on Linux. */
export function storeRoot(env: Env = process.env): string {
  if (process.platform === "darwin")
    return join(homedir(), "Library", "Application Support", "io.kubebuilder.envtest");
  if (process.platform === "win32") return join(env.LocalAppData ?? homedir(), "kubebuilder-envtest");
  const data = env.XDG_DATA_HOME || join(env.HOME || homedir(), ".local", "share");
  return join(data, "kubebuilder-envtest");
}

/** `<root>/k8s/<major.minor.patch>-<os>-<arch>`: where setup-envtest keeps one release's binaries. */
export function storeVersionDir(version: string, env: Env = process.env, root = storeRoot(env)): string {
  const { os, arch } = goPlatform();
  return join(root, "k8s", `${version.replace(/^v/, "")}-${os}-${arch}`);
}
