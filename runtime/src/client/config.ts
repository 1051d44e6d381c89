/**
 * Finding the cluster, like controller-runtime's config.GetConfig: an explicit path, then $KUBECONFIG
 * (several files joined by the path delimiter are merged), then the in-cluster service account, then
 * ~/.kube/config. Loading and authentication (client certs, tokens, exec plugins, OIDC) are
 * @kubernetes/client-node's KubeConfig; the REST layer asks it for credentials on every request.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";

export interface LoadKubeConfigOptions {
  /** A kubeconfig file to use instead of the search order (a `--kubeconfig` flag). */
  path?: string;
  /** Use this context instead of the file's current-context. */
  context?: string;
}

const SERVICE_ACCOUNT_TOKEN = "/var/run/secrets/kubernetes.io/serviceaccount/token";

export function loadKubeConfig(options: LoadKubeConfigOptions = {}): KubeConfig {
  const kc = new KubeConfig();
  const env = process.env.KUBECONFIG?.trim();
  const home = join(homedir(), ".kube", "config");
  if (options.path) {
    if (!existsSync(options.path)) {
      throw new Error(`kubeconfig ${options.path} does not exist; pass the path of a kubeconfig file`);
    }
    kc.loadFromFile(options.path);
  } else if (env) {
    // client-node merges the files of a multi-path KUBECONFIG; `true` keeps the first file's
    // current-context, as kubectl does (client-node's default lets the last file's win).
    kc.loadFromDefault(undefined, true);
  } else if (process.env.KUBERNETES_SERVICE_HOST && existsSync(SERVICE_ACCOUNT_TOKEN)) {
    kc.loadFromCluster();
  } else if (existsSync(home)) {
    kc.loadFromFile(home);
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
