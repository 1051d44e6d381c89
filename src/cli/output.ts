import { fstatSync, statSync, writeSync } from "node:fs";
import type { OutputConfiguration } from "commander";

const STDOUT = 1;

/**
 * Whether stdout may be a terminal. A pipe, a file or /dev/null is not; anything else (a character
 * device other than /dev/null, Windows, an fd fstat cannot read) may be, and is left to Node.
 * Asked with fstat, not `process.stdout.isTTY`: the first touch of `process.stdout` loads Node's
 * stream stack (net too, for a pipe), about a tenth of `kbts --help`'s time when its output is piped.
 */
function stdoutMayBeTerminal(): boolean {
  if (process.platform === "win32") return true;
  try {
    const out = fstatSync(STDOUT);
    if (out.isFIFO() || out.isFile() || out.isSocket()) return false;
    return !out.isCharacterDevice() || out.rdev !== statSync("/dev/null").rdev;
  } catch {
    return true;
  }
}

/**
 * Writes `text` to stdout with write(2) until done. A pipe whose reader went away (`kbts --help | head`)
 * ends the output quietly; a pipe another process made non-blocking hands the rest to process.stdout,
 * which waits for room.
 */
function writeStdout(text: string): void {
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(STDOUT, bytes, written);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EPIPE") return;
    if (code !== "EAGAIN") throw err;
    process.stdout.write(bytes.subarray(written));
  }
}

/**
 * commander's output settings for the root command (subcommands inherit them): where stdout is no
 * terminal, help and version go out without creating `process.stdout`, 80 columns wide and without
 * colour, as commander decides for a non-terminal (colour still follows NO_COLOR/FORCE_COLOR).
 * On a terminal, commander's own defaults.
 */
export function cliOutput(defaults: OutputConfiguration): OutputConfiguration {
  if (stdoutMayBeTerminal()) return {};
  const colourFromEnvironment = ["NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE"].some(
    (name) => process.env[name] !== undefined,
  );
  return {
    writeOut: writeStdout,
    // commander's own width for a non-terminal.
    getOutHelpWidth: () => 80,
    // commander reads these variables before it looks at process.stdout, so asking it then is free.
    getOutHasColors: () => (colourFromEnvironment ? (defaults.getOutHasColors?.() ?? false) : false),
  };
}
