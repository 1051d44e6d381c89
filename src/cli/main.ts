import { Command, CommanderError } from "commander";
import { kbtsVersion } from "../version.js";
import { defineAlpha } from "./commands/alpha.js";
import { defineCreate } from "./commands/create.js";
import { defineEdit } from "./commands/edit.js";
import { defineEnvtest } from "./commands/envtest.js";
import { defineGenerate } from "./commands/generate.js";
import { defineInit } from "./commands/init.js";
import { defineLint } from "./commands/lint.js";
import { defineManifests } from "./commands/manifests.js";
import { defineMigrateStorage } from "./commands/migrate-storage.js";
import { defineSetupEnvtest } from "./commands/setup-envtest.js";
import { defineVersion } from "./commands/version.js";
import { COMPLETE_COMMAND, complete, defineCompletion, formatCompletion, liveSources } from "./completion.js";

/**
 * Builds the command tree. Each command file only declares flags and imports its implementation
 * lazily inside the action, so `kbts --help` never loads ts-morph or the runtime (help-path.test.ts).
 */
export function buildProgram(): Command {
  const program = new Command("kbts")
    .description("Kubebuilder for TypeScript: scaffold, generate and run Kubernetes operators")
    .version(kbtsVersion(), "--version", "print the kbts version")
    .showHelpAfterError("(run `kbts --help` for usage)")
    // Root options only before the subcommand: `create api --version v1` is the API version, not kbts'.
    .enablePositionalOptions()
    .exitOverride();
  defineInit(program);
  defineCreate(program);
  defineEdit(program);
  defineManifests(program);
  defineGenerate(program);
  defineMigrateStorage(program);
  defineLint(program);
  defineSetupEnvtest(program);
  defineEnvtest(program);
  defineVersion(program);
  defineAlpha(program);
  defineCompletion(program);
  return program;
}

/** Runs the CLI; returns the exit code. Errors are printed here, once. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  // The completion scripts' callback: its words are a command line, not options for commander.
  if (argv[2] === COMPLETE_COMMAND) {
    const words = argv.slice(3);
    process.stdout.write(
      formatCompletion(complete(program, words.length ? words : [""], await liveSources(process.cwd()))),
    );
    return 0;
  }
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander already printed its message (or help/version, which exit 0).
      return err.exitCode;
    }
    // Imported here, as the commands do: the bundled CLI (dist/cli.cjs) then shares their KbtsError class.
    const { KbtsError } = await import("../errors.js");
    if (err instanceof KbtsError) {
      process.stderr.write(`error: ${err.format()}\n`);
      return 1;
    }
    throw err;
  }
}
