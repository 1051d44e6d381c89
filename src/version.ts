import { readFileSync } from "node:fs";

/** The Kubernetes release kbts targets: envtest builds it by default, and generated projects pin to it. */
export const KUBERNETES_VERSION = "1.36.3";

/** kbts' own version, read from its package.json so there is one source of truth. */
export function kbtsVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}
