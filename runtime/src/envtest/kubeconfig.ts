import { stringify } from "yaml";

/** What a client needs to reach the API server as the admin user (PEM strings). */
export interface RestConfig {
  host: string;
  caData: string;
  certData: string;
  keyData: string;
}

/** A kubeconfig whose cluster, user and context are all named `envtest` (as envtest's KubeConfigFromREST). */
export function kubeconfigYAML(config: RestConfig): string {
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [
      { name: "envtest", cluster: { server: config.host, "certificate-authority-data": b64(config.caData) } },
    ],
    users: [
      {
        name: "envtest",
        user: { "client-certificate-data": b64(config.certData), "client-key-data": b64(config.keyData) },
      },
    ],
    contexts: [{ name: "envtest", context: { cluster: "envtest", user: "envtest" } }],
    "current-context": "envtest",
  });
}
