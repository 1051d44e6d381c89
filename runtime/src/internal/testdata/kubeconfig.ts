/** A kubeconfig for unit tests whose API server is never reached (port 1), with its user's credentials. */
import { KubeConfig, type User } from "@kubernetes/client-node";

export function unreachableKubeConfig(user: Omit<User, "name"> = {}): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: "c", server: "https://127.0.0.1:1", skipTLSVerify: true }],
    users: [{ name: "u", ...user }],
    contexts: [{ name: "x", cluster: "c", user: "u" }],
    currentContext: "x",
  });
  return kc;
}
