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
    .action(async (opts: Record<string, unknown>) => {
      exitCleanlyOnSignals();
      const { runEdit } = await import("../../plugins/edit.js");
      const multigroup = opts.multigroup === undefined ? undefined : flagBool(opts.multigroup, true);
      printResult(await runEdit(process.cwd(), { multigroup }));
    });
}
