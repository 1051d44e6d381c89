/**
 * A README's shell blocks as a script a test runs, in order and as written. Two conventions keep the
 * README readable for people:
 * - a command whose comment starts with "in another terminal" runs in the background (and is stopped
 *   with Ctrl-C, SIGINT, at the end); `ready when it prints "X"` / `ready when it logs "X"` in that
 *   comment makes the next command wait until X appears in its output;
 * - a comment line right after a command that starts with "# Error from server" says the command must
 *   fail with that output (up to a trailing "...").
 */

import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { npmEnv, withEmptyNpmCache } from "./npm.js";
import { REPO } from "./paths.js";

export interface ReadmeStep {
  /** The command as written (continuation lines and heredoc bodies included). */
  command: string;
  /** 1-based line of the README where it starts. */
  line: number;
  background?: { ready?: string };
  /** The command must fail, with this text in its output. */
  expectFailure?: string;
}

/** The ```sh blocks of `markdown`, or only those under the `## heading` section when given. */
export function shellBlocks(markdown: string, section?: string): { text: string; line: number }[] {
  const lines = markdown.split("\n");
  let inSection = section === undefined;
  const blocks: { text: string; line: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? "";
    if (section !== undefined && /^## /.test(l)) inSection = l.trim() === `## ${section}`;
    if (!inSection || !/^```(sh|bash|shell)\s*$/.test(l)) continue;
    const start = i + 1;
    let j = start;
    while (j < lines.length && !/^```\s*$/.test(lines[j] ?? "")) j++;
    blocks.push({ text: lines.slice(start, j).join("\n"), line: start + 1 });
    i = j;
  }
  return blocks;
}

/** Splits blocks into commands: `\` continuations and heredocs stay with their command. */
export function readmeSteps(blocks: { text: string; line: number }[]): ReadmeStep[] {
  const steps: ReadmeStep[] = [];
  for (const block of blocks) {
    const lines = block.text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const first = lines[i] ?? "";
      if (first.trim() === "") continue;
      if (first.trim().startsWith("#")) {
        const failure = /^#\s*(Error from server.*?)(\s*\.\.\.)?\s*$/.exec(first.trim());
        const previous = steps[steps.length - 1];
        if (failure?.[1] && previous) previous.expectFailure = failure[1];
        continue;
      }
      const start = i;
      const parts = [first];
      while ((lines[i] ?? "").endsWith("\\") && i + 1 < lines.length) parts.push(lines[++i] ?? "");
      const heredoc = /<<-?\s*'?([A-Za-z_]+)'?/.exec(parts.join("\n"));
      if (heredoc?.[1]) {
        while (i + 1 < lines.length) {
          const body = lines[++i] ?? "";
          parts.push(body);
          if (body.trim() === heredoc[1]) break;
        }
      }
      const command = parts.join("\n");
      const comment = /\s#\s*(in another terminal.*)$/.exec(parts[0] ?? "")?.[1];
      const step: ReadmeStep = { command, line: block.line + start };
      if (comment) {
        const ready = /ready when it (?:prints|logs) "([^"]+)"/.exec(comment)?.[1];
        step.background = ready ? { ready } : {};
      }
      steps.push(step);
    }
  }
  return steps;
}

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * One bash script for the steps (so `cd` and `export` carry on as in a terminal): each step is echoed
 * as `==> <file>:<line>: <command>` before it runs, the first failure stops the script, and background
 * commands run in their own process group, stopped with SIGINT when the script ends.
 */
export function stepsScript(steps: ReadmeStep[], file: string, readyTimeoutSeconds = 600): string {
  const out = [
    "set -euo pipefail",
    'BG=""',
    'LOGS="$(mktemp -d)"',
    "stop_background() {",
    '  for p in $BG; do kill -INT -- "-$p" 2>/dev/null || true; done',
    '  for p in $BG; do while kill -0 "$p" 2>/dev/null; do sleep 0.2; done; done',
    '  for f in "$LOGS"/*.log; do [ -f "$f" ] && { echo "--- output of $(head -c 200 "$f.cmd")"; tail -n 40 "$f"; }; done',
    '  rm -rf "$LOGS"',
    "}",
    "trap stop_background EXIT",
  ];
  steps.forEach((step, n) => {
    const where = `${file}:${step.line}`;
    out.push(`echo ${quote(`==> ${where}: ${step.command.split("\n")[0]}`)}`);
    if (step.background) {
      const log = `"$LOGS/${n}.log"`;
      out.push(`printf '%s' ${quote(step.command)} > ${log}.cmd`);
      out.push(`setsid bash -c ${quote(step.command)} > ${log} 2>&1 < /dev/null &`);
      out.push('last=$!; BG="$BG $last"');
      if (step.background.ready) {
        out.push(
          `deadline=$((SECONDS + ${readyTimeoutSeconds}))`,
          `until grep -qF ${quote(step.background.ready)} ${log}; do`,
          `  if ! kill -0 "$last" 2>/dev/null || [ $SECONDS -gt $deadline ]; then echo ${quote(`${where}: never printed "${step.background.ready}"`)} >&2; cat ${log} >&2; exit 1; fi`,
          "  sleep 0.5",
          "done",
        );
      }
    } else if (step.expectFailure) {
      out.push(
        `if out="$( { ${step.command}\n} 2>&1)"; then echo ${quote(`${where}: expected to fail with "${step.expectFailure}", but it succeeded`)} >&2; echo "$out" >&2; exit 1; fi`,
        'echo "$out"',
        `grep -qF ${quote(step.expectFailure)} <<<"$out" || { echo ${quote(`${where}: expected "${step.expectFailure}" in its output`)} >&2; exit 1; }`,
      );
    } else {
      out.push(step.command);
    }
  });
  return `${out.join("\n")}\n`;
}

/**
 * Runs the shell steps of `markdown` (those under `## section` when given) as written, in `cwd`, with
 * `kbts` on PATH (a shim for this checkout's bin/kbts.js), the local control plane's kubectl
 * (KUBEBUILDER_ASSETS), npm caches that start empty, and nothing else of the caller's environment.
 * `file` names the page in the `==> file:line: command` lines of the output.
 */
export async function runShellSteps(
  file: string,
  markdown: string,
  cwd: string,
  section?: string,
): Promise<{ steps: ReadmeStep[]; exitCode: number; output: string }> {
  const steps = readmeSteps(shellBlocks(markdown, section));
  mkdirSync(cwd, { recursive: true });
  const shims = join(cwd, "..", "bin");
  mkdirSync(shims, { recursive: true });
  writeFileSync(
    join(shims, "kbts"),
    `#!/bin/sh\nexec node ${JSON.stringify(join(REPO, "bin/kbts.js"))} "$@"\n`,
  );
  chmodSync(join(shims, "kbts"), 0o755);
  const assets = process.env.KUBEBUILDER_ASSETS ?? "";
  const script = join(cwd, "..", `${section ?? "readme"}.sh`.replaceAll(" ", "-"));
  writeFileSync(script, stepsScript(steps, file));
  return withEmptyNpmCache(async (npmCache) => {
    const env: Record<string, string> = {
      ...npmEnv(npmCache),
      PATH: [shims, assets, process.env.PATH ?? ""].join(":"),
      HOME: process.env.HOME ?? cwd,
      KUBEBUILDER_ASSETS: assets,
    };
    const r = await execa("bash", [script], { cwd, env, extendEnv: false, all: true, reject: false });
    return { steps, exitCode: r.exitCode ?? 1, output: r.all ?? "" };
  });
}
