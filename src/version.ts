import { readFileSync } from "node:fs";

/** The Kubernetes release kbts targets: envtest builds it by default, and generated projects pin to it. */
export const KUBERNETES_VERSION = "1.36.3";

/** The annotation on every generated manifest naming the kbts that wrote it (controller-gen.kubebuilder.io/version's twin). */
export const VERSION_ANNOTATION = "kbts.dev/version";

/**
 * kbts' package folder: this module sits one level below it, as src/version.ts, dist/version.js or a
 * bundle at dist/'s top (src/packaging/cli-bundle.ts), so paths from here hold in all three.
 */
export const KBTS_PACKAGE = new URL("../", import.meta.url);

/** kbts' own version, read from its package.json so there is one source of truth. */
export function kbtsVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("package.json", KBTS_PACKAGE), "utf8")) as {
    version: string;
  };
  return pkg.version;
}
