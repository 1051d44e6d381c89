/**
 * The command reference page, from the commander program `kbts` runs (buildProgram): every command,
 * its arguments and every option with its description, default and choices. A command or option
 * without a description fails the docs test (reference.test.ts), so none is added undocumented.
 */
import type { Command, Option } from "commander";
import { buildProgram } from "../../src/cli/main.js";
import { escapeMd } from "./markers.js";

/** Every command of the program, depth first, with its full name (`create api`). */
export function commands(program: Command = buildProgram()): { path: string; cmd: Command }[] {
  const out: { path: string; cmd: Command }[] = [];
  const walk = (cmd: Command, prefix: string) => {
    for (const sub of cmd.commands) {
      // commander keeps `_hidden` private; a hidden command (the completion callback) is internal.
      if ((sub as unknown as { _hidden?: boolean })._hidden) continue;
      const path = prefix ? `${prefix} ${sub.name()}` : sub.name();
      out.push({ path, cmd: sub });
      walk(sub, path);
    }
  };
  walk(program, "");
  return out;
}

/** The options a user sees in `--help` (hidden ones are internal). */
export const visibleOptions = (cmd: Command): readonly Option[] => cmd.options.filter((o) => !o.hidden);

export const commandAnchor = (path: string): string => `kbts-${path.replaceAll(" ", "-")}`;

const cell = (s: string) => escapeMd(s).replaceAll("|", "\\|").replaceAll("\n", " ");

function optionRow(o: Option): string {
  const extra: string[] = [];
  if (o.defaultValue !== undefined && o.defaultValue !== false)
    extra.push(`default: \`${JSON.stringify(o.defaultValue)}\``);
  if (o.argChoices) extra.push(`one of: ${o.argChoices.map((c) => `\`${c}\``).join(", ")}`);
  if (o.envVar) extra.push(`env: \`${o.envVar}\``);
  const desc = [o.description, ...extra].filter(Boolean).join("; ");
  return `| \`${o.flags.replaceAll("|", "\\|")}\` | ${cell(desc)} |`;
}

export function cliPage(): string {
  const program = buildProgram();
  const all = commands(program);
  const out = [
    "---",
    "outline: [2, 3]",
    "---",
    "",
    "# Commands and flags",
    "",
    "Every `kbts` command and flag, generated from the commander program the CLI runs (`src/cli/`), as",
    "`kbts <command> --help` prints them. The [parity table](/operations/parity) says how each",
    "relates to Kubebuilder v4.16's.",
    "",
    "| command | what it does |",
    "| --- | --- |",
    ...all.map(
      ({ path, cmd }) => `| [\`kbts ${path}\`](#${commandAnchor(path)}) | ${cell(cmd.description())} |`,
    ),
    "",
    "## kbts {#kbts}",
    "",
    escapeMd(program.description()),
    "",
    "| option | description |",
    "| --- | --- |",
    ...visibleOptions(program).map(optionRow),
    "",
  ];
  for (const { path, cmd } of all) {
    const depth = path.split(" ").length;
    out.push(`${depth === 1 ? "##" : "###"} kbts ${path} {#${commandAnchor(path)}}`, "");
    out.push(escapeMd(cmd.description()), "");
    out.push("```text", `kbts ${path} ${cmd.usage()}`.trim(), "```", "");
    const args = cmd.registeredArguments;
    if (args.length) {
      out.push("| argument | description |", "| --- | --- |");
      for (const a of args)
        out.push(`| \`${a.name()}\`${a.required ? "" : " (optional)"} | ${cell(a.description)} |`);
      out.push("");
    }
    const opts = visibleOptions(cmd);
    if (opts.length) out.push("| option | description |", "| --- | --- |", ...opts.map(optionRow), "");
  }
  return `${out.join("\n")}\n`;
}
