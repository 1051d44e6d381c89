import { Command, CommanderError, Help } from "commander";
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
import { cliOutput } from "./output.js";

/** A top-level command: its name and description, which the root help lists, and the rest of it. */
interface TopLevelCommand {
  name: string;
  description: string;
  /** Its options, arguments, subcommands and action. */
  define(cmd: Command): void;
}

const COMMANDS: readonly TopLevelCommand[] = [
  {
    name: "init",
    description:
      "Initialize a new operator project (PROJECT, Makefile, cmd/main.ts, config/, ...) in the current directory",
    define: defineInit,
  },
  { name: "create", description: "Scaffold a Kubernetes API or webhook", define: defineCreate },
  {
    name: "edit",
    description: "Update the project configuration (PROJECT) after init, as Kubebuilder's edit",
    define: defineEdit,
  },
  {
    name: "manifests",
    description:
      "generate CRDs, RBAC roles and webhook configurations from API types and // +kubebuilder markers",
    define: defineManifests,
  },
  {
    name: "generate",
    description:
      "write typed Kind descriptors (api/<version>/zz_generated.kinds.ts) for the project's API types, or with --from-crd types and descriptors for another project's CRD",
    define: defineGenerate,
  },
  {
    name: "migrate-storage",
    description:
      "After a storage version changes: rewrite every stored object of the CRDs in their storage version and leave only it in status.storedVersions",
    define: defineMigrateStorage,
  },
  {
    name: "lint",
    description: "type-aware checks biome cannot do: promises that are neither awaited nor handled",
    define: defineLint,
  },
  {
    name: "setup-envtest",
    description:
      "find, download or build etcd, kube-apiserver and kubectl for envtest (like controller-runtime's setup-envtest)",
    define: defineSetupEnvtest,
  },
  { name: "envtest", description: "run a local etcd + kube-apiserver control plane", define: defineEnvtest },
  {
    name: "version",
    description:
      "print the kbts version, where it runs from (an installed package or a checkout), the Node.js version and the Kubernetes version kbts targets",
    define: defineVersion,
  },
  { name: "alpha", description: "Experimental commands, as Kubebuilder's alpha", define: defineAlpha },
  {
    name: "completion",
    description: "Generate the autocompletion script for the specified shell",
    define: defineCompletion,
  },
];

/**
 * Builds the command tree. Each command file only declares flags and imports its implementation
 * lazily inside the action, so `kbts --help` never loads ts-morph or the runtime (help-path.test.ts).
 *
 * With `argv`, only the top-level commands it names are defined in full; the others have their name and
 * description, all the root help and commander's dispatch need. Defining every option of every
 * command (each an Option parsed from its flags and an event listener) was a sixth of `kbts --help`.
 */
export function buildProgram(argv?: readonly string[]): Command {
  const program = new Command("kbts")
    .description("Kubebuilder for TypeScript: scaffold, generate and run Kubernetes operators")
    .version(kbtsVersion(), "--version", "print the kbts version")
    .showHelpAfterError("(run `kbts --help` for usage)")
    // Root options only before the subcommand: `create api --version v1` is the API version, not kbts'.
    .enablePositionalOptions()
    .exitOverride()
    // cobra's listing: a command's name and arguments, without commander's "[options]", which a command
    // not yet defined in full could not show.
    .configureHelp({ subcommandTerm: commandTerm });
  program.configureOutput(cliOutput(program.configureOutput()));
  const named = argv && new Set(argv.slice(2));
  for (const { name, description, define } of COMMANDS) {
    const cmd = program.command(name).description(description);
    if (!named || named.has(name)) define(cmd);
  }
  return program;
}

/** A subcommand as a command's help lists it: commander's term (name, alias, arguments) less "[options]". */
function commandTerm(this: Help, cmd: Command): string {
  return Help.prototype.subcommandTerm.call(this, cmd).replace(" [options]", "");
}

/** Runs the CLI; returns the exit code. Errors are printed here, once. */
export async function main(argv: string[]): Promise<number> {
  // Completion walks every command; anything else needs only the commands it names.
  const program = buildProgram(argv[2] === COMPLETE_COMMAND ? undefined : argv);
  // The completion scripts' callback: its words are a command line, not options for commander.
  if (argv[2] === COMPLETE_COMMAND) {
    const words = argv.slice(3);
    const completion = complete(program, words.length ? words : [""], await liveSources(process.cwd()));
    program.configureOutput().writeOut?.(formatCompletion(completion));
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
