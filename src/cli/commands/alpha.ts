import type { Command } from "commander";
import { exitCleanlyOnSignals } from "../../process.js";
import { printResult } from "../scaffold-flags.js";

// Declares `kbts alpha` (Kubebuilder's experimental commands); implementations load only when run.
export function defineAlpha(alpha: Command): void {
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
      const { runAlphaGenerate } = await import("../../commands/alpha-generate.js");
      printResult(
        await runAlphaGenerate(process.cwd(), {
          inputDir: opts.inputDir as string | undefined,
          outputDir: opts.outputDir as string | undefined,
          force: opts.force === true,
          runtime: opts.runtime as string | undefined,
        }),
      );
    });
  const repeat = (value: string, previous: string[] = []) => [...previous, value];
  alpha
    .command("update")
    .description(
      "Update the project to a newer kbts' scaffold with a three-way git merge (the old and new scaffolds from PROJECT, and your code); squashed into one commit on an output branch",
    )
    .option(
      "--from-version <version>",
      "the kbts release that made the project (default: PROJECT's cliVersion); run through npm",
    )
    .option("--to-version <version>", "the kbts release to update to (default: this kbts)")
    .option(
      "--from-branch <branch>",
      "the git branch holding your project (default: main, or the current branch when there is no main)",
    )
    .option(
      "--force",
      "commit conflicts with their markers instead of stopping (for automation), and replace an existing output branch",
    )
    .option("--show-commits", "keep the merge commit and its history instead of one squashed commit")
    .option(
      "--squash",
      "one squashed commit on the output branch: the default, spelled out (not with --show-commits)",
    )
    .option(
      "--restore-path <path>",
      "a path (of the project) kept as --from-branch has it in the squashed commit, e.g. .github/workflows (repeatable)",
      repeat,
    )
    .option("--output-branch <branch>", "the branch of the result (default kbts-update-from-<from>-to-<to>)")
    .option("--push", "push the output branch to origin")
    .option("--merge-message <message>", "the commit message when nothing conflicts")
    .option(
      "--conflict-message <message>",
      "the commit message's subject when files conflict (the files are listed below it)",
    )
    .option("--open-gh-issue", "open a GitHub issue with a compare link to the output branch (needs gh)")
    .option(
      "--git-config <key=value>",
      "a git setting for every git command of the update (repeatable); disable drops the defaults (merge.renameLimit, diff.renameLimit, merge.conflictStyle)",
      repeat,
    )
    .action(async (opts: Record<string, unknown>) => {
      exitCleanlyOnSignals();
      if (opts.squash === true && opts.showCommits === true) {
        const { KbtsError } = await import("../../errors.js");
        throw new KbtsError("--squash and --show-commits ask for opposite results", {
          where: "--squash, --show-commits",
          fix: "keep one: --squash (the default) for one commit, --show-commits for the merge with its history",
        });
      }
      const { runAlphaUpdate } = await import("../../commands/alpha-update.js");
      const result = await runAlphaUpdate(process.cwd(), {
        fromVersion: opts.fromVersion as string | undefined,
        toVersion: opts.toVersion as string | undefined,
        fromBranch: opts.fromBranch as string,
        force: opts.force === true,
        showCommits: opts.showCommits === true,
        restorePath: opts.restorePath as string[] | undefined,
        outputBranch: opts.outputBranch as string | undefined,
        push: opts.push === true,
        mergeMessage: opts.mergeMessage as string | undefined,
        conflictMessage: opts.conflictMessage as string | undefined,
        openGhIssue: opts.openGhIssue === true,
        gitConfig: opts.gitConfig as string[] | undefined,
        log: (line) => process.stdout.write(`${line}\n`),
      });
      // Changed on the output branch (compared with --from-branch), not written in the working tree.
      for (const path of result.written) process.stdout.write(`  changed ${path}\n`);
      process.stdout.write(`${result.next}\n`);
    });
}
