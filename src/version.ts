import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The Kubernetes release kbts targets: envtest builds it by default, and generated projects pin to it. */
export const KUBERNETES_VERSION = "1.36.3";

/** The annotation on every generated manifest naming the kbts that wrote it (controller-gen.kubebuilder.io/version's twin). */
export const VERSION_ANNOTATION = "kbts.dev/version";

/**
 * The root of the running kbts (a checkout, or the installed package's folder): this module sits one
 * level below it, as src/version.ts, dist/version.js or a bundle at dist/'s top
 * (src/packaging/cli-bundle.ts), so paths from here hold in all three. A path, not a URL: making and
 * reading file URLs was a millisecond of every `kbts --help` on Node 20.
 */
export const KBTS_ROOT = join(import.meta.dirname, "..");

/** kbts' own version, read from its package.json so there is one source of truth. */
export function kbtsVersion(): string {
  const pkg = JSON.parse(readFileSync(join(KBTS_ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  return pkg.version;
}
