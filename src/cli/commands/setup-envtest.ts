import type { Command } from "commander";

export function defineSetupEnvtest(cmd: Command): void {
  cmd
    .command("use")
    .description("print where the binaries of a Kubernetes release are, obtaining them first if needed")
    .argument(
      "[version]",
      "release (1.36.3) or minor (1.36: its newest patch); default: the release kbts targets",
    )
    .option("-p, --print <format>", "what to print: overview, path or env", "overview")
    .option(
      "--bin-dir <dir>",
      "store root to use instead of the default (XDG_DATA_HOME or ~/.local/share, then kubebuilder-envtest)",
    )
    .option("-i, --installed-only", "only use binaries already in the store; never download or build")
    .option(
      "--with <components>",
      "also kube-controller-manager, kube-scheduler and/or kwok (comma-separated, repeatable), built on first ask",
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option(
      "--cluster",
      "also every binary of envtest's cluster mode (kube-controller-manager, kube-scheduler, kwok)",
    )
    .action(
      async (
        version: string | undefined,
        opts: { print: string; binDir?: string; installedOnly?: boolean; with: string[]; cluster?: boolean },
      ) => {
        const { runSetupEnvtestUse } = await import("../../envtest/command.js");
        await runSetupEnvtestUse(version, opts);
      },
    );
}
