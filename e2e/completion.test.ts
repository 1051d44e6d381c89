/**
 * `kbts completion bash` in a real bash, against the built CLI (bin/kbts.js as `kbts` on PATH): the
 * script is sourced, `complete -p kbts` names its function, and the function is called as bash calls
 * it on Tab (COMP_LINE, COMP_POINT, COMP_WORDS split at COMP_WORDBREAKS, COMP_CWORD), in a project
 * whose PROJECT has kinds. What it offers must be what the program has: the flags of `create api` are
 * read from the commander program itself, the plugin keys from the registry.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProgram } from "../src/cli/main.js";
import "../src/plugins/index.js";
import { registeredPlugins } from "../src/plugins/registry.js";
import { formatProject } from "../src/project/config.js";
import { KBTS } from "./support/paths.js";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-completion-"));
const bin = join(work, "bin");
const project = join(work, "fleet");
const bash = (script: string) =>
  execa("bash", ["--norc", "--noprofile", "-c", script], {
    cwd: project,
    env: { PATH: `${bin}:${process.env.PATH}` },
  });

beforeAll(() => {
  mkdirSync(bin);
  writeFileSync(join(bin, "kbts"), `#!/bin/sh\nexec "${process.execPath}" "${KBTS}" "$@"\n`);
  chmodSync(join(bin, "kbts"), 0o755);
  mkdirSync(project);
  writeFileSync(
    join(project, "PROJECT"),
    formatProject({
      version: "3",
      domain: "example.com",
      layout: ["typescript.kbts.dev/v1"],
      projectName: "fleet",
      repo: "example.com/fleet",
      resources: [
        { group: "ship", version: "v1", kind: "Frigate", api: { crdVersion: "v1", namespaced: true } },
        { group: "ship", version: "v2", kind: "Frigate", api: { crdVersion: "v1", namespaced: true } },
        { group: "sea", version: "v1", kind: "Captain", api: { crdVersion: "v1", namespaced: true } },
      ],
    }),
  );
  writeFileSync(join(project, "header.txt"), "/* Copyright YEAR The Fleet Authors. */\n");
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** One Tab: COMP_WORDS as bash splits the line (its word breaks included), the cursor at the end. */
interface Tab {
  line: string;
  words: string[];
}
const tab = (line: string, words = [...line.split(/\s+/)]): Tab => ({ line, words });

/** Sources the script once, then completes each line; returns COMPREPLY per line. */
async function completeAll(tabs: Tab[]): Promise<string[][]> {
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const calls = tabs.map(
    (t) => `COMP_LINE=${quote(t.line)}; COMP_POINT=\${#COMP_LINE}
COMP_WORDS=(${t.words.map(quote).join(" ")}); COMP_CWORD=${t.words.length - 1}; COMPREPLY=()
"$fn" kbts "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
echo "### \${#COMPREPLY[@]}"; printf '%s\\n' "\${COMPREPLY[@]}"`,
  );
  const script = `set -e
source <(kbts completion bash)
spec=$(complete -p kbts)
echo "$spec"
fn=\${spec#*-F }; fn=\${fn%% *}
${calls.join("\n")}`;
  const { stdout } = await bash(script);
  const [spec = "", ...sections] = stdout.split(/^### /m);
  expect(spec.trim()).toMatch(/^complete -F \S+ kbts$/);
  expect(sections).toHaveLength(tabs.length);
  return sections.map((s) => {
    const [count = "", ...lines] = s.split("\n");
    const reply = Number(count) === 0 ? [] : lines.slice(0, Number(count));
    expect(reply, s).toHaveLength(Number(count));
    return reply;
  });
}

function command(path: string): Command {
  let c: Command | undefined = buildProgram();
  for (const word of path.split(" ")) c = c?.commands.find((x) => x.name() === word);
  if (!c) throw new Error(`no command ${path}`);
  return c;
}
const longFlags = (c: Command) =>
  c
    .createHelp()
    .visibleOptions(c)
    .map((o) => o.long ?? "")
    .filter((f) => f !== "");

describe("kbts completion bash, in bash", () => {
  it("completes commands, subcommands, flags, plugin keys and PROJECT's kinds", async () => {
    // completeAll checks it has one reply a line, so the defaults are never used.
    const [
      top = [],
      create,
      apiFlags = [],
      plugins = [],
      editPlugins,
      kinds,
      versions,
      shells,
      licenses,
      files,
    ] = await completeAll([
      tab("kbts "),
      tab("kbts create "),
      tab("kbts create api --"),
      tab("kbts create api --group ship --plugins "),
      // bash splits --plugins=he at "=": COMP_WORDS has "--plugins" "=" "he"
      tab("kbts edit --plugins=he", ["kbts", "edit", "--plugins", "=", "he"]),
      tab("kbts create api --group ship --kind "),
      tab("kbts create webhook --group ship --kind Frigate --version "),
      tab("kbts completion "),
      tab("kbts edit --license "),
      tab("kbts edit --license-file hea"),
    ]);
    const program = buildProgram();
    const visible = program
      .createHelp()
      .visibleCommands(program)
      .map((c) => c.name());
    expect(top.sort()).toEqual([...visible].sort());
    expect(top).toEqual(expect.arrayContaining(["init", "create", "edit", "alpha", "completion", "version"]));
    expect(top).not.toContain("__complete");
    expect(create).toEqual(["api", "webhook"]);
    // Every flag the program declares on create api, and nothing else: a new flag needs no script change.
    expect(apiFlags.sort()).toEqual(longFlags(command("create api")).sort());
    expect(apiFlags).toEqual(expect.arrayContaining(["--group", "--version", "--kind", "--plugins"]));
    const createApiPlugins = registeredPlugins()
      .filter((p) => p.createApi)
      .map((p) => p.key.replace(/\.[^/]*\//, "/"));
    expect(plugins.sort()).toEqual(createApiPlugins.sort());
    expect(plugins).toContain("typescript/v1");
    expect(editPlugins).toEqual(["helm/v2-alpha"]);
    expect(kinds).toEqual(["Frigate"]);
    expect(versions).toEqual(["v1", "v2"]);
    expect(shells).toEqual(["bash", "zsh", "fish", "powershell"]);
    expect(licenses).toEqual(["apache2", "MIT", "copyright", "none"]);
    // A path flag falls back to bash's file names.
    expect(files).toEqual(["header.txt"]);
  });

  it("says how to load each script, and every script calls back into kbts __complete", async () => {
    for (const shell of ["bash", "zsh", "fish", "powershell"]) {
      const { stdout: script } = await execa(process.execPath, [KBTS, "completion", shell]);
      expect(script, shell).toContain("__complete");
      const { stdout: help } = await execa(process.execPath, [KBTS, "completion", shell, "--help"]);
      expect(help, shell).toContain(
        {
          bash: "source <(kbts completion bash)",
          zsh: "source <(kbts completion zsh)",
          fish: "kbts completion fish | source",
          powershell: "kbts completion powershell | Out-String | Invoke-Expression",
        }[shell],
      );
    }
    const { stdout: bashScript } = await execa(process.execPath, [KBTS, "completion", "bash"]);
    await execa("bash", ["-n"], { input: bashScript });
    // zsh, fish and pwsh run their scripts where they are installed (not on every machine).
    for (const [shell, check] of [
      ["zsh", ["zsh", "-n"]],
      ["fish", ["fish", "--no-execute"]],
    ] as const) {
      const found = await execa("sh", ["-c", `command -v ${check[0]}`], { reject: false });
      if (found.exitCode !== 0) continue;
      const { stdout } = await execa(process.execPath, [KBTS, "completion", shell]);
      await execa(check[0], [check[1]], { input: stdout });
    }
  });
});
