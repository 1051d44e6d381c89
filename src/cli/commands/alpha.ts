import type { Command } from "commander";
import { exitCleanlyOnSignals } from "../interrupt.js";
import { printResult } from "../scaffold-flags.js";

// Declares `kbts alpha` (Kubebuilder's experimental commands); implementations load only when run.
export function defineAlpha(program: Command): void {
  const alpha = program.command("alpha").description("Experimental commands, as Kubebuilder's alpha");
  alpha
    .command("generate")
    .description(
      "Re-scaffold a project from its PROJECT file with this kbts' templates (all kinds, webhooks and plugins); your code is left to merge",
    )
    .option("--input-dir <dir>", "the directory holding PROJECT (default: the current directory)")
    .option(
      "--output-dir <dir>",
      "where the new scaffold goes (default: the input directory, which then needs --force)",
    )
    .option("--force", "re-scaffold in place, or into a non-empty --output-dir, replacing all but .git")
    .option(
      "--runtime <spec>",
      "init's --runtime for the new scaffold (default: as the project's package.json)",
    )
    .action(async (opts: Record<string, unknown>) => {
      exitCleanlyOnSignals();
      const { runAlphaGenerate } = await import("../../plugins/alpha-generate.js");
      printResult(
        await runAlphaGenerate(process.cwd(), {
          inputDir: opts.inputDir as string | undefined,
          outputDir: opts.outputDir as string | undefined,
          force: opts.force === true,
          runtime: opts.runtime as string | undefined,
        }),
      );
    });
}
