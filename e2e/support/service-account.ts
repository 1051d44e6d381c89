/** Running an operator as its service account: a kubeconfig with a token of that account and nothing else. */
import { writeFileSync } from "node:fs";
import { KubeConfig } from "@kubernetes/client-node";
import { execa } from "execa";

/**
 * Writes to `path` a kubeconfig for the control plane of `adminKubeconfig` that authenticates as
 * `namespace/name` (a token from `kubectl create token`), so a manager started with it has exactly
 * the permissions its generated roles grant.
 */
export async function serviceAccountKubeconfig(
  kubectl: string,
  adminKubeconfig: string,
  namespace: string,
  name: string,
  path: string,
): Promise<void> {
  const token = await execa(
    kubectl,
    ["--kubeconfig", adminKubeconfig, "create", "token", name, "-n", namespace],
    {
      reject: false,
      all: true,
    },
  );
  if (token.exitCode !== 0)
    throw new Error(`kubectl create token ${namespace}/${name} failed:\n${token.all}`);
  const admin = new KubeConfig();
  admin.loadFromFile(adminKubeconfig);
  const cluster = admin.getCurrentCluster();
  if (!cluster) throw new Error(`no cluster in ${adminKubeconfig}`);
  const sa = new KubeConfig();
  sa.loadFromOptions({
    clusters: [cluster],
    users: [{ name, token: token.stdout.trim() }],
    contexts: [{ name: "service-account", cluster: cluster.name, user: name }],
    currentContext: "service-account",
  });
  writeFileSync(path, sa.exportConfig());
}
