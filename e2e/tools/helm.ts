/**
 * helm, the real one, as a test tool: `make helm` (part of `make tools`) builds it once from the Go
 * module proxy into ${XDG_CACHE_HOME:-~/.cache}/kbts/helm/<version>/helm (see go-tool.ts); tests only
 * look it up and never build it. Run directly (`node --import tsx e2e/tools/helm.ts`) it installs
 * when missing and prints the binary's path.
 */
import { fileURLToPath } from "node:url";
import { cachedGoTool, type GoTool, installGoToolOrExit } from "./go-tool.js";

export const HELM_VERSION = "v3.22.0";

export const HELM: GoTool = {
  label: `helm ${HELM_VERSION}`,
  name: "helm",
  stamp: HELM_VERSION,
  binary: "helm",
  make: "make helm",
  build: { install: `helm.sh/helm/v3/cmd/helm@${HELM_VERSION}` },
};

/** The cached helm, or an error naming the step that builds it (tests call this). */
export function cachedHelm(): string {
  const helm = cachedGoTool(HELM);
  if (!helm.ok) throw new Error(helm.reason);
  return helm.bin;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await installGoToolOrExit(HELM);
}
