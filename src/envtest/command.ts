import { CLUSTER_BINARY_NAMES, type ClusterBinaryName } from "@kbts/runtime/envtest";
import { KbtsError } from "../errors.js";
import { formatResult, setupEnvtest } from "./setup.js";

/** `kbts setup-envtest use`: stdout carries only the answer; progress goes to stderr. */
export async function runSetupEnvtestUse(
  version: string | undefined,
  opts: { print: string; binDir?: string; installedOnly?: boolean; with?: string[]; cluster?: boolean },
): Promise<void> {
  formatResult({ dir: "", version: undefined, source: "env" }, opts.print); // reject a bad -p before any work
  const components = clusterComponents(opts.with ?? [], opts.cluster ?? false);
  const result = await setupEnvtest({
    ...(version ? { version } : {}),
    ...(components.length > 0 ? { components } : {}),
    ...(opts.binDir ? { binDir: opts.binDir } : {}),
    ...(opts.installedOnly ? { installedOnly: true } : {}),
  });
  process.stdout.write(formatResult(result, opts.print));
}

/** `--with kube-scheduler,kwok` (repeatable) and `--cluster` (all three) → the components, checked. */
export function clusterComponents(withNames: string[], cluster: boolean): ClusterBinaryName[] {
  const names = new Set<ClusterBinaryName>(cluster ? CLUSTER_BINARY_NAMES : []);
  for (const name of withNames
    .flatMap((w) => w.split(","))
    .map((n) => n.trim())
    .filter(Boolean)) {
    if (!(CLUSTER_BINARY_NAMES as readonly string[]).includes(name)) {
      throw new KbtsError(`unknown component "${name}"`, {
        where: "--with",
        fix: `use ${CLUSTER_BINARY_NAMES.join(", ")} (or --cluster for all three)`,
      });
    }
    names.add(name as ClusterBinaryName);
  }
  return CLUSTER_BINARY_NAMES.filter((n) => names.has(n));
}
