/** Running a command in a test or the demo, with its whole output in the error when it fails. */
import { existsSync, readFileSync } from "node:fs";
import { execa } from "execa";
import { cmdlineOf, processes } from "../../runtime/src/internal/proc.js";

/** An argument as a user would type it in a shell. */
export const shellQuote = (a: string) =>
  /[\s{}"'$*?;&|<>()]/.test(a) ? `'${a.replaceAll("'", "'\\''")}'` : a;

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Echo the command and its output (the demo); quiet by default (tests). */
  show?: boolean;
  /** Do not throw on a non-zero exit; the result carries it. */
  reject?: boolean;
  /** Kill the command after this many ms: a hang then fails with its output so far, not a test timeout. */
  timeout?: number;
}

/**
 * Runs a command; on failure the error carries its whole output, so a broken step explains itself.
 * A timeout ends the command's whole process group: killing `make` alone leaves the recipe's
 * processes (a kubectl that waits) holding the output pipe, and the run would wait for them anyway.
 */
export async function run(file: string, args: string[], options: RunOptions = {}) {
  if (options.show) process.stdout.write(`$ ${[file, ...args].map(shellQuote).join(" ")}\n`);
  const bounded = options.timeout !== undefined;
  const child = execa(file, args, {
    cwd: options.cwd,
    env: options.env,
    all: true,
    reject: false,
    stdin: "ignore",
    detached: bounded,
  });
  let timedOut = false;
  let stillRunning = "";
  const timer = bounded
    ? setTimeout(() => {
        timedOut = true;
        stillRunning = processesOfGroup(child.pid);
        try {
          if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        } catch {
          // The group has just ended by itself.
        }
      }, options.timeout)
    : undefined;
  const result = await child.finally(() => clearTimeout(timer));
  if (options.show && result.all) process.stdout.write(`${result.all}\n`);
  if (timedOut && options.reject !== false) {
    throw new Error(
      `${[file, ...args].join(" ")} was still running after ${options.timeout} ms, as were:\n` +
        `${stillRunning}\nits output:\n${result.all ?? ""}`,
    );
  }
  if (result.exitCode !== 0 && options.reject !== false) {
    throw new Error(`${[file, ...args].join(" ")} exited ${result.exitCode}:\n${result.all ?? ""}`);
  }
  return result;
}

/** The processes of a command's group, with their run time: which step of a make recipe is hanging. */
function processesOfGroup(pgid: number | undefined): string {
  if (pgid === undefined) return "";
  if (!existsSync("/proc/uptime")) return "  (no /proc to list them from)";
  const uptime = Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]);
  return processes()
    .filter((p) => p.pgrp === pgid && p.state !== "Z")
    .map((p) => {
      const seconds = Math.round(uptime - p.startTicks / 100);
      return `  running ${seconds} s: ${cmdlineOf(p.pid).split("\0").join(" ").trim().slice(0, 300)}`;
    })
    .join("\n");
}
