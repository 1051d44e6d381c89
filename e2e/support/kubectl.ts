/** kubectl against a test's control plane. */
import { join } from "node:path";
import { execa } from "execa";

/** The envtest binaries (kube-apiserver, etcd, kubectl): KUBEBUILDER_ASSETS, or where `make tools` puts them. */
export const ASSETS = process.env.KUBEBUILDER_ASSETS || "/tmp/envtest-bin";
/** The kubectl of ASSETS. */
export const KUBECTL = join(ASSETS, "kubectl");

/**
 * `kubectl --kubeconfig <kubeconfig> <args>`, never throwing: the caller asserts on the exit code and
 * the output. `input` is its stdin (a manifest for `apply -f -`).
 */
export function runKubectl(kubeconfig: string, args: string[], input?: string) {
  return execa(KUBECTL, ["--kubeconfig", kubeconfig, ...args], { reject: false, all: true, input });
}
