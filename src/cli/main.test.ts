/**
 * The command tree `kbts` builds for one command line (buildProgram(argv)) defines in full only the
 * top-level commands the line names. Whatever the line, every help a user can reach must read exactly
 * as the full tree's (which docs/gen/cli.ts and completion use).
 */
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "./main.js";

/** Every command below `cmd` with its words (`["create", "api"]`), depth first. */
function paths(cmd: Command, prefix: string[] = []): string[][] {
  return cmd.commands.flatMap((sub) => {
    const path = [...prefix, sub.name()];
    return [path, ...paths(sub, path)];
  });
}

function find(program: Command, path: string[]): Command {
  let cmd = program;
  for (const word of path) {
    const sub = cmd.commands.find((c) => c.name() === word);
    if (!sub) throw new Error(`no command ${path.join(" ")}`);
    cmd = sub;
  }
  return cmd;
}

const argv = (...words: string[]) => ["node", "kbts", ...words];

describe("buildProgram for a command line", () => {
  const full = buildProgram();

  it("lists every command in the root help as the full tree does, without defining them", () => {
    const lazy = buildProgram(argv("--help"));
    expect(lazy.helpInformation()).toBe(full.helpInformation());
    expect(lazy.commands.map((c) => c.name())).toEqual(full.commands.map((c) => c.name()));
    // Nothing below the top level is defined: no options, no subcommands.
    expect(lazy.commands.flatMap((c) => [...c.options, ...c.commands])).toEqual([]);
    expect(full.commands.flatMap((c) => [...c.options, ...c.commands])).not.toEqual([]);
  });

  it("gives every command it names the help of the full tree", () => {
    for (const path of paths(full)) {
      const lazy = buildProgram(argv(...path, "--help"));
      expect(find(lazy, path).helpInformation(), path.join(" ")).toBe(find(full, path).helpInformation());
    }
  });

  it("defines a command named anywhere on the line, and only those", () => {
    const lazy = buildProgram(argv("help", "create"));
    const defined = lazy.commands.filter((c) => c.options.length + c.commands.length > 0);
    expect(defined.map((c) => c.name())).toEqual(["create"]);
  });
});
