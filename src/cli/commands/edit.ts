import type { Command } from "commander";
import { exitCleanlyOnSignals } from "../interrupt.js";
import { flagBool, parseBool, printResult } from "../scaffold-flags.js";

// Declares `kbts edit`; the implementation loads only when it runs.
export function defineEdit(program: Command): void {
  program
    .command("edit")
    .description("Update the project configuration (PROJECT) after init, as Kubebuilder's edit")
    .option(
      "--multigroup [bool]",
      "API groups in api/<group>/<version> (--multigroup=false: back to api/<version>); existing code is moved by hand",
      parseBool,
    )
    .option(
      "--namespaced [bool]",
      "watch only WATCH_NAMESPACE with a Role/RoleBinding (--namespaced=false: back to cluster-wide); carries the change into config, cmd/main.ts and the controllers' RBAC markers",
      parseBool,
    )
    .option(
      "--force",
      "overwrite scaffolded config files whose edits overlap the change (code is never overwritten)",
    )
    .action(async (opts: Record<string, unknown>) => {
      exitCleanlyOnSignals();
      const { runEdit } = await import("../../plugins/edit.js");
      const setting = (v: unknown) => (v === undefined ? undefined : flagBool(v, true));
      printResult(
        await runEdit(process.cwd(), {
          multigroup: setting(opts.multigroup),
          namespaced: setting(opts.namespaced),
          force: opts.force === true,
        }),
      );
    });
}
