import { formatResult, setupEnvtest } from "./setup.js";

/** `kbts setup-envtest use`: stdout carries only the answer; progress goes to stderr. */
export async function runSetupEnvtestUse(
  version: string | undefined,
  opts: { print: string; binDir?: string; installedOnly?: boolean },
): Promise<void> {
  formatResult({ dir: "", version: undefined, source: "env" }, opts.print); // reject a bad -p before any work
  const result = await setupEnvtest({
    ...(version ? { version } : {}),
    ...(opts.binDir ? { binDir: opts.binDir } : {}),
    ...(opts.installedOnly ? { installedOnly: true } : {}),
  });
  process.stdout.write(formatResult(result, opts.print));
}
