import { accessSync, constants, readdirSync } from "node:fs";
import { join } from "node:path";
import { EnvtestError } from "./errors.js";
import {
  assetEnvVar,
  BINARY_NAMES,
  type BinaryName,
  CLUSTER_BINARY_NAMES,
  type ClusterBinaryName,
  DEFAULT_KUBERNETES_VERSION,
  goPlatform,
  storeRoot,
  storeVersionDir,
} from "./store.js";

export type Binaries = Record<BinaryName, string>;
type Env = Record<string, string | undefined>;

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The newest release directory in the store that holds all three binaries, preferring the default release. */
function storeDir(env: Env): string | undefined {
  const preferred = storeVersionDir(DEFAULT_KUBERNETES_VERSION, env);
  if (BINARY_NAMES.every((n) => executable(join(preferred, n)))) return preferred;
  const { os, arch } = goPlatform();
  const suffix = `-${os}-${arch}`;
  let entries: string[];
  try {
    entries = readdirSync(join(storeRoot(env), "k8s"));
  } catch {
    return undefined;
  }
  const versions = entries
    .filter((e) => e.endsWith(suffix))
    .map((e) => e.slice(0, -suffix.length))
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v))
    .sort(compareVersions)
    .reverse();
  for (const v of versions) {
    const dir = storeVersionDir(v, env);
    if (BINARY_NAMES.every((n) => executable(join(dir, n)))) return dir;
  }
  return undefined;
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Finds one binary the way controller-runtime does: TEST_ASSET_<NAME>, then $KUBEBUILDER_ASSETS/<name>,
 * then binaryAssetsDirectory/<name>, then the setup-envtest store. Returns undefined when none exists.
 */
export function findBinary(
  name: BinaryName | ClusterBinaryName,
  options: { binaryAssetsDirectory?: string; env?: Env } = {},
): string | undefined {
  const env = options.env ?? process.env;
  const candidates = [
    env[assetEnvVar(name)],
    env.KUBEBUILDER_ASSETS ? join(env.KUBEBUILDER_ASSETS, name) : undefined,
    options.binaryAssetsDirectory ? join(options.binaryAssetsDirectory, name) : undefined,
  ];
  for (const c of candidates) if (c && executable(c)) return c;
  const dir = storeDir(env);
  return dir ? join(dir, name) : undefined;
}

/** etcd and kube-apiserver (and kubectl, when found): throws one clear error naming what to set. */
export function resolveBinaries(options: { binaryAssetsDirectory?: string; env?: Env } = {}): {
  etcd: string;
  "kube-apiserver": string;
  kubectl: string | undefined;
} {
  const env = options.env ?? process.env;
  const missing: BinaryName[] = [];
  const found: Partial<Binaries> = {};
  for (const name of BINARY_NAMES) {
    const path = findBinary(name, options);
    if (path) found[name] = path;
    else if (name !== "kubectl") missing.push(name);
  }
  if (missing.length > 0 || !found.etcd || !found["kube-apiserver"]) {
    const where = env.KUBEBUILDER_ASSETS ? ` (KUBEBUILDER_ASSETS=${env.KUBEBUILDER_ASSETS})` : "";
    throw new EnvtestError(
      `envtest: no ${missing.join(" or ")} binary found${where}; looked at ${missing.map(assetEnvVar).join(", ")}, $KUBEBUILDER_ASSETS, binaryAssetsDirectory and the store ${join(storeRoot(env), "k8s")}`,
      {
        fix: 'run `kbts setup-envtest use` and set KUBEBUILDER_ASSETS="$(kbts setup-envtest use -p path)"',
      },
    );
  }
  return { etcd: found.etcd, "kube-apiserver": found["kube-apiserver"], kubectl: found.kubectl };
}

/** kube-controller-manager, kube-scheduler and kwok for cluster mode, found like the others; one clear error. */
export function resolveClusterBinaries(
  options: { binaryAssetsDirectory?: string; env?: Env } = {},
): Record<ClusterBinaryName, string> {
  const found: Partial<Record<ClusterBinaryName, string>> = {};
  const missing: ClusterBinaryName[] = [];
  for (const name of CLUSTER_BINARY_NAMES) {
    const path = findBinary(name, options);
    if (path && executable(path)) found[name] = path;
    else missing.push(name);
  }
  const [controllerManager, scheduler, kwok] = CLUSTER_BINARY_NAMES.map((n) => found[n]);
  if (!controllerManager || !scheduler || !kwok) {
    throw new EnvtestError(
      `envtest cluster mode: no ${missing.join(" or ")} binary found; looked at ${missing.map(assetEnvVar).join(", ")}, $KUBEBUILDER_ASSETS, binaryAssetsDirectory and the store ${join(storeRoot(options.env ?? process.env), "k8s")}`,
      {
        fix: 'run `kbts setup-envtest use --cluster` and set KUBEBUILDER_ASSETS="$(kbts setup-envtest use --cluster -p path)"',
      },
    );
  }
  return { "kube-controller-manager": controllerManager, "kube-scheduler": scheduler, kwok };
}
