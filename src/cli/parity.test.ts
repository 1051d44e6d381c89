/**
 * The book's "Kubebuilder v4.16 commands and flags" table (docs/operations/parity.md), held to the CLI: what it says kbts accepts
 * (the kbts column: `same` or kbts' spelling) must be a command or option of kbts' commander program,
 * a plugin it resolves or a flag of the scaffolded manager; what it says kbts lacks (`no`) must be
 * refused; and every command and flag of Kubebuilder v4.16.0 must have a row.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { zapFlagOptions } from "@kbts/runtime";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import "../plugins/index.js";
import { findPlugin } from "../plugins/registry.js";
import { buildProgram } from "./main.js";

const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), "utf8");
const PAGE = "docs/operations/parity.md";
const HEADING = "# Kubebuilder v4.16 commands and flags: what kbts has";

/**
 * Kubebuilder v4.16.0's commands and flags: pkg/cli (root, init, create, edit, version, completion,
 * alpha), internal/cli/alpha (generate, update), the BindFlags of pkg/plugins/golang/v4,
 * common/kustomize/v2, golang/deploy-image/v1alpha1 and optional/helm/v1alpha and v2alpha (grafana and
 * autoupdate have none), and the flags of the cmd/main.go it scaffolds (with zap.Options.BindFlags).
 */
const CREATE_FLAGS = ["--group", "--version", "--kind", "--plural", "--force", "--make"];
const KUBEBUILDER: Record<string, string[]> = {
  // --plugins is on the root and every subcommand (a persistent flag)
  "": ["--plugins", "--project-version", "--help"],
  init: [
    "--domain",
    "--project-name",
    "--repo",
    "--license",
    "--owner",
    "--license-file",
    "--multigroup",
    "--namespaced",
    "--fetch-deps",
    "--skip-go-version-check",
    "--project-version",
  ],
  "create api": [
    ...CREATE_FLAGS,
    "--resource",
    "--namespaced",
    "--ssa",
    "--controller",
    "--controller-name",
    "--external-api-path",
    "--external-api-domain",
    "--external-api-module",
    // deploy-image/v1-alpha
    "--image",
    "--image-container-command",
    "--image-container-port",
    "--run-as-user",
    "--manifests",
  ],
  "create webhook": [
    ...CREATE_FLAGS,
    "--defaulting",
    "--programmatic-validation",
    "--conversion",
    "--spoke",
    "--defaulting-path",
    "--validation-path",
    "--external-api-path",
    "--external-api-domain",
    "--external-api-module",
  ],
  // helm/v2-alpha adds --manifests and --output-dir
  edit: [
    "--multigroup",
    "--namespaced",
    "--force",
    "--license",
    "--owner",
    "--license-file",
    "--manifests",
    "--output-dir",
  ],
  "alpha generate": ["--input-dir", "--output-dir", "--skip-go-version-check"],
  "alpha update": [
    "--from-version",
    "--to-version",
    "--from-branch",
    "--force",
    "--show-commits",
    "--restore-path",
    "--output-branch",
    "--push",
    "--merge-message",
    "--conflict-message",
    "--open-gh-issue",
    "--git-config",
  ],
  version: [],
  help: [],
  "completion bash": [],
  "completion zsh": [],
  "completion fish": [],
  "completion powershell": [],
  manager: [
    "--metrics-bind-address",
    "--health-probe-bind-address",
    "--leader-elect",
    "--metrics-secure",
    "--webhook-cert-path",
    "--webhook-cert-name",
    "--webhook-cert-key",
    "--webhook-port",
    "--metrics-cert-path",
    "--metrics-cert-name",
    "--metrics-cert-key",
    "--enable-http2",
    "--zap-devel",
    "--zap-encoder",
    "--zap-log-level",
    "--zap-stacktrace-level",
    "--zap-time-encoding",
  ],
};
const PLUGINS = [
  "go/v4",
  "kustomize/v2",
  "deploy-image/v1-alpha",
  "helm/v1-alpha",
  "helm/v2-alpha",
  "grafana/v1-alpha",
  "autoupdate/v1-alpha",
];

const COMMAND_WORDS = new Set(["init", "create", "edit", "alpha", "version", "help", "completion"]);

/** One command line of a cell: the command ("" is the root, "manager" the scaffolded manager), a flag, a plugin key. */
interface Spelling {
  command: string;
  flag?: string;
  plugin?: string;
}

/**
 * The command lines of a cell: each code span is `<command words> [--flag[=value] [value]]...`, or
 * `--flag` continuing the command of the span before it (a span of command words alone is the
 * command itself); a cell starting with "manager" is the
 * manager's. Other spans (values such as `json`) are not command lines.
 */
function spellings(cell: string): Spelling[] {
  let command = cell.startsWith("manager") ? "manager" : "";
  const out: Spelling[] = [];
  for (const [, span = ""] of cell.matchAll(/`([^`]+)`/g)) {
    const words = span.split(/\s+/);
    const first = words[0] ?? "";
    if (!first.startsWith("--") && !COMMAND_WORDS.has(first)) continue;
    let i = 0;
    if (!first.startsWith("--")) {
      const path: string[] = [];
      while (i < words.length && !words[i]?.startsWith("--")) path.push(words[i++] ?? "");
      command = path.join(" ");
      if (i === words.length) out.push({ command });
    }
    for (; i < words.length; i++) {
      const word = words[i] ?? "";
      if (!word.startsWith("--")) continue;
      const [flag = "", inline] = word.split("=");
      const value = inline ?? (words[i + 1]?.startsWith("--") ? undefined : words[i + 1]);
      out.push({ command, flag, plugin: flag === "--plugins" ? value : undefined });
    }
  }
  return out;
}

interface Row {
  kubebuilder: Spelling[];
  kbts: "same" | "no" | Spelling[];
  line: string;
}

function parityTable(): Row[] {
  const page = read(`../../${PAGE}`);
  const start = page.indexOf(HEADING);
  expect(start, `${PAGE} has the title "${HEADING}"`).toBeGreaterThanOrEqual(0);
  const section = page.slice(start + HEADING.length).split(/\n## /)[0] ?? "";
  const lines = section.split("\n").filter((l) => l.startsWith("|"));
  expect(lines.slice(0, 2).join("\n")).toMatch(/^\| Kubebuilder v4\.16 +\| kbts +\| Notes +\|\n\| -+/);
  return lines.slice(2).map((line) => {
    const [, kubebuilder = "", kbts = ""] = line.split("|").map((c) => c.trim());
    const column = kbts === "same" || kbts === "no" ? kbts : spellings(kbts);
    return { kubebuilder: spellings(kubebuilder), kbts: column, line };
  });
}

const program = buildProgram();

function findCommand(path: string): Command | undefined {
  let command: Command | undefined = program;
  for (const word of path.split(" ").filter((w) => w !== "")) {
    command = command
      ?.createHelp()
      .visibleCommands(command)
      .find((c) => c.name() === word);
  }
  return command;
}

/** The flags of the manager that `kbts init` scaffolds: its parseArgs options and the zap flags. */
function managerFlags(): Set<string> {
  const main = read("../../templates/typescript/init/cmd/main.ts.hbs");
  const options = [...main.matchAll(/^ {4}"([a-z0-9-]+)": \{ type:/gm)].map((m) => `--${m[1]}`);
  return new Set([...options, ...Object.keys(zapFlagOptions()).map((f) => `--${f}`)]);
}

function pluginResolves(key: string): boolean {
  try {
    findPlugin(key);
    return true;
  } catch {
    return false;
  }
}

/** Whether kbts accepts this command line. */
function accepted(s: Spelling): boolean {
  if (s.plugin !== undefined && !pluginResolves(s.plugin)) return false;
  if (s.command === "manager") return s.flag === undefined || managerFlags().has(s.flag);
  const command = findCommand(s.command);
  if (!command) return false;
  if (s.flag === undefined) return true;
  return command
    .createHelp()
    .visibleOptions(command)
    .some((o) => o.long === s.flag);
}

const show = (s: Spelling) =>
  [s.command === "" ? "kbts" : s.command, s.flag, s.plugin].filter((w) => w !== undefined).join(" ");

describe("the book's Kubebuilder v4.16 parity table", () => {
  const rows = parityTable();

  it("has rows, each naming a Kubebuilder command line", () => {
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows) expect(row.kubebuilder, row.line).not.toEqual([]);
  });

  it("says kbts accepts only what kbts' CLI and scaffolded manager accept", () => {
    const wrong: string[] = [];
    for (const row of rows) {
      if (row.kbts === "no") continue;
      const claimed = row.kbts === "same" ? row.kubebuilder : row.kbts;
      for (const s of claimed) if (!accepted(s)) wrong.push(show(s));
    }
    expect(wrong, `${PAGE} says kbts accepts these, but kbts refuses them`).toEqual([]);
  });

  it("says kbts lacks only what kbts refuses", () => {
    const wrong = rows
      .filter((row) => row.kbts === "no")
      .flatMap((row) =>
        row.kubebuilder.filter((s) => s.flag !== undefined || s.plugin !== undefined).filter(accepted),
      )
      .map(show);
    const commands = rows
      .filter((row) => row.kbts === "no")
      .flatMap((row) => row.kubebuilder.filter((s) => s.flag === undefined && findCommand(s.command)))
      .map(show);
    expect(
      [...wrong, ...commands],
      `${PAGE} says kbts lacks these, but kbts accepts them: update the row`,
    ).toEqual([]);
  });

  it("has a row for every command, flag and plugin of Kubebuilder v4.16", () => {
    const listed = rows.flatMap((row) => row.kubebuilder);
    const has = (command: string, flag?: string) =>
      listed.some((s) => s.command === command && (flag === undefined || s.flag === flag));
    const missing = Object.entries(KUBEBUILDER).flatMap(([command, flags]) => [
      ...(command === "" || has(command) ? [] : [command]),
      ...flags.filter((flag) => !has(command, flag)).map((flag) => `${command || "kbts"} ${flag}`),
    ]);
    const plugins = new Set(listed.map((s) => s.plugin));
    missing.push(...PLUGINS.filter((p) => !plugins.has(p)).map((p) => `--plugins ${p}`));
    expect(missing, `Kubebuilder v4.16 has these; the table of ${PAGE} must say whether kbts does`).toEqual(
      [],
    );
  });

  it("reads command lines out of a cell", () => {
    expect(spellings("`create api --external-api-path`, `--external-api-domain` for `json`")).toEqual([
      { command: "create api", flag: "--external-api-path", plugin: undefined },
      { command: "create api", flag: "--external-api-domain", plugin: undefined },
    ]);
    expect(spellings("`edit`, `edit --plugins helm/v2-alpha`, `--force`")).toEqual([
      { command: "edit" },
      { command: "edit", flag: "--plugins", plugin: "helm/v2-alpha" },
      { command: "edit", flag: "--force", plugin: undefined },
    ]);
    expect(spellings("manager `--zap-encoder` (`json`, `console`)")).toEqual([
      { command: "manager", flag: "--zap-encoder", plugin: undefined },
    ]);
    expect(accepted({ command: "create api", flag: "--no-such-flag" })).toBe(false);
    expect(accepted({ command: "manager", flag: "--no-such-flag" })).toBe(false);
    expect(accepted({ command: "edit", flag: "--plugins", plugin: "go/v4" })).toBe(false);
  });
});
