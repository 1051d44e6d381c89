/** Running a command in a test or the demo, with its whole output in the error when it fails. */
import { execa } from "execa";

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

/** Runs a command; on failure the error carries its whole output, so a broken step explains itself. */
export async function run(file: string, args: string[], options: RunOptions = {}) {
  if (options.show) process.stdout.write(`$ ${[file, ...args].map(shellQuote).join(" ")}\n`);
  const result = await execa(file, args, {
    cwd: options.cwd,
    env: options.env,
    all: true,
    reject: false,
    stdin: "ignore",
    timeout: options.timeout,
  });
  if (options.show && result.all) process.stdout.write(`${result.all}\n`);
  if (result.timedOut && options.reject !== false) {
    throw new Error(
      `${[file, ...args].join(" ")} was still running after ${options.timeout} ms:\n${result.all ?? ""}`,
    );
  }
  if (result.exitCode !== 0 && options.reject !== false) {
    throw new Error(`${[file, ...args].join(" ")} exited ${result.exitCode}:\n${result.all ?? ""}`);
  }
  return result;
}
