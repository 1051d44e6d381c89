import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { KbtsError } from "../errors.js";

/** The `go` executable on PATH, or undefined. */
export function findGo(env: Record<string, string | undefined> = process.env): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, "go");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Runs go with args in cwd; returns stdout. On failure throws with the last lines of its output. */
export function runGo(
  go: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; baseEnv?: Record<string, string | undefined> },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(go, args, {
      cwd: options.cwd,
      env: { ...(options.baseEnv ?? process.env), ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr = (stderr + c.toString()).slice(-20_000);
    });
    child.on("error", (err) => reject(new KbtsError(`could not run ${go}: ${err.message}`)));
    child.on("close", (code) => {
      if (code === 0) return resolve(stdout);
      reject(new GoCommandError(`go ${args.join(" ")} failed (exit ${code})`, failureText(stderr, stdout)));
    });
  });
}

/** The useful part of a failed go command's output: stderr's last lines, or the JSON Error field. */
function failureText(stderr: string, stdout: string): string {
  if (!stderr.trim()) {
    try {
      const err = (JSON.parse(stdout) as { Error?: string }).Error;
      if (err) return err;
    } catch {
      // not JSON
    }
  }
  return (stderr.trim() ? stderr : stdout)
    .split("\n")
    .filter((l) => l && !l.startsWith("go: downloading"))
    .slice(-8)
    .join("\n  ");
}

export class GoCommandError extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(output ? `${message}: ${output}` : message);
    this.name = "GoCommandError";
  }
}
