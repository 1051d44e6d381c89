import { readFileSync } from "node:fs";

/** The Kubernetes release kbts targets: envtest builds it by default, and generated projects pin to it. */
export const KUBERNETES_VERSION = "1.36.3";

/** The annotation on every generated manifest naming the kbts that wrote it (controller-gen.kubebuilder.io/version's twin). */
export const VERSION_ANNOTATION = "kbts.dev/version";

/** kbts' own version, read from its package.json so there is one source of truth. */
export function kbtsVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}
