import type { Command } from "commander";
import { collectList } from "../scaffold-flags.js";

// Declares `kbts migrate-storage`; the runtime loads only when it runs.
export function defineMigrateStorage(cmd: Command): void {
  cmd
    .option(
      "--crd <name>",
      "a CRD, <plural>.<group> (repeatable or comma-separated; default: every CRD of config/crd/bases that serves several versions)",
      collectList,
      [],
    )
    .option("--kubeconfig <path>", "the cluster's kubeconfig (default: KUBECONFIG, then ~/.kube/config)")
    .action(async (opts: { crd: string[]; kubeconfig?: string }) => {
      const { describeMigration, runMigrateStorage } = await import("../../storage/migrate.js");
      const results = await runMigrateStorage(process.cwd(), { crds: opts.crd, kubeconfig: opts.kubeconfig });
      for (const r of results) process.stdout.write(`${describeMigration(r)}\n`);
    });
}
