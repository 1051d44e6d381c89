/**
 * Finding the cluster, like controller-runtime's config.GetConfig: an explicit path, then $KUBECONFIG
 * (several files joined by the path delimiter are merged), then the in-cluster service account, then
 * ~/.kube/config. The result (kubeconfig.ts) gives the REST layer credentials on every request: client
 * certs, tokens, exec plugins, and through client-node, loaded only for them, OIDC and other providers.
 */
import { existsSync, readFileSync } from "node:fs";
import { isIPv6 } from "node:net";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { LoadedKubeConfig } from "./kubeconfig.js";

export interface LoadKubeConfigOptions {
  /** A kubeconfig file to use instead of the search order (a `--kubeconfig` flag). */
  path?: string;
  /** Use this context instead of the file's current-context. */
  context?: string;
}

/** Where the kubelet mounts a pod's service-account token, CA and namespace. */
export const DEFAULT_SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

/**
 * The service-account directory: $KBTS_SERVICE_ACCOUNT_DIR when set (to run a process on a host with
 * exactly a pod's identity: token, ca.crt, namespace), else the kubelet's mount point.
 */
export function serviceAccountDir(): string {
  return process.env.KBTS_SERVICE_ACCOUNT_DIR?.trim() || DEFAULT_SERVICE_ACCOUNT_DIR;
}

/** The namespace of the service account this process runs as (the pod's), when in a cluster. */
export function inClusterNamespace(): string | undefined {
  try {
    return readFileSync(join(serviceAccountDir(), "namespace"), "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * client-go's rest.InClusterConfig: https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT, the
 * directory's ca.crt, and its token re-read as the kubelet rotates it. (client-node's loadFromCluster
 * can only prefix the fixed path, not move the directory.)
 */
export function loadInClusterConfig(dir: string = serviceAccountDir()): LoadedKubeConfig {
  const host = process.env.KUBERNETES_SERVICE_HOST?.trim();
  const port = process.env.KUBERNETES_SERVICE_PORT?.trim();
  if (!host || !port) {
    throw new Error(
      "in-cluster configuration needs KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT; run in a pod or set both",
    );
  }
  for (const file of ["token", "ca.crt"]) {
    if (!existsSync(join(dir, file))) {
      throw new Error(
        `in-cluster configuration: ${join(dir, file)} does not exist; mount the service account there or set KBTS_SERVICE_ACCOUNT_DIR`,
      );
    }
  }
  const kc = LoadedKubeConfig.fromClusterAndUser(
    {
      name: "inCluster",
      server: `https://${isIPv6(host) ? `[${host}]` : host}:${port}`,
      caFile: join(dir, "ca.crt"),
      skipTLSVerify: false,
    },
    { name: "inClusterUser", authProvider: { name: "tokenFile", config: { tokenFile: join(dir, "token") } } },
  );
  const namespace = inClusterNamespace();
  if (namespace) kc.contexts = kc.contexts.map((c) => ({ ...c, namespace }));
  return kc;
}

export function loadKubeConfig(options: LoadKubeConfigOptions = {}): LoadedKubeConfig {
  let kc: LoadedKubeConfig;
  const env = process.env.KUBECONFIG?.trim();
  const home = join(homedir(), ".kube", "config");
  if (options.path) {
    if (!existsSync(options.path)) {
      throw new Error(`kubeconfig ${options.path} does not exist; pass the path of a kubeconfig file`);
    }
    kc = LoadedKubeConfig.fromFile(options.path);
  } else if (env) {
    // The files of a multi-path KUBECONFIG are merged; the first file's current-context wins, as in kubectl.
    const [first, ...rest] = env.split(delimiter).filter(Boolean) as [string, ...string[]];
    kc = LoadedKubeConfig.fromFile(first);
    for (const file of rest) kc.merge(LoadedKubeConfig.fromFile(file));
  } else if (process.env.KUBERNETES_SERVICE_HOST && existsSync(join(serviceAccountDir(), "token"))) {
    return loadInClusterConfig();
  } else if (existsSync(home)) {
    kc = LoadedKubeConfig.fromFile(home);
  } else {
    throw new Error(
      "no Kubernetes configuration found: set KUBECONFIG, create ~/.kube/config, or run in a pod with a service account",
    );
  }
  if (options.context) {
    if (!kc.getContextObject(options.context)) {
      const known = kc.getContexts().map((c) => c.name);
      throw new Error(
        `kubeconfig has no context "${options.context}"; known contexts: ${known.join(", ") || "(none)"}`,
      );
    }
    kc.setCurrentContext(options.context);
  }
  if (!kc.getCurrentCluster()) {
    throw new Error(
      `kubeconfig context "${kc.getCurrentContext()}" names no cluster; fix current-context or pass a context`,
    );
  }
  return kc;
}
