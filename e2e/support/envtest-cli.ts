/** Running `kbts envtest start` as a user does, and checking what it leaves behind (processes, temp dirs). */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
export const KBTS = join(REPO, "bin", "kbts.js");

/** Live (non-zombie) processes whose command line mentions text. */
export function processesMentioning(text: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      const state = readFileSync(`/proc/${entry}/stat`, "utf8").replace(/^.*\) /, "")[0];
      if (cmdline.includes(text) && state !== "Z") out.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

export interface StartedCLI {
  child: ChildProcess;
  /** The TMPDIR it runs with: its temp dirs live here, and its processes' flags mention it. */
  tmp: string;
  stdout: () => string;
  stderr: () => string;
}

/**
 * Starts `kbts envtest start` with its own TMPDIR under work; resolves once it printed the export line.
 * The caller kills the child when done (it is also returned on failure through `started`).
 */
export async function startEnvtestCLI(
  args: string[],
  options: { work: string; assets: string; started: ChildProcess[]; timeoutMs?: number },
): Promise<StartedCLI> {
  const tmp = mkdtempSync(join(options.work, "tmp-"));
  const child = spawn("node", [KBTS, "envtest", "start", ...args], {
    env: { ...process.env, TMPDIR: tmp, KUBEBUILDER_ASSETS: options.assets },
    stdio: ["ignore", "pipe", "pipe"],
  });
  options.started.push(child);
  let out = "";
  let err = "";
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    err += c.toString();
  });
  const timeoutMs = options.timeoutMs ?? 60_000;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`envtest start printed no export line in ${timeoutMs}ms:\n${out}\n${err}`)),
      timeoutMs,
    );
    child.stdout?.on("data", () => {
      if (out.includes("export KUBECONFIG=")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`envtest start exited with ${code}:\n${out}\n${err}`));
    });
  });
  return { child, tmp, stdout: () => out, stderr: () => err };
}

/** Runs `kbts envtest start` expecting it to fail (bad input): resolves with its result and TMPDIR. */
export async function runEnvtestCLI(args: string[], options: { work: string; assets: string }) {
  const tmp = mkdtempSync(join(options.work, "tmp-"));
  const r = await execa("node", [KBTS, "envtest", "start", ...args], {
    env: { TMPDIR: tmp, KUBEBUILDER_ASSETS: options.assets },
    reject: false,
    timeout: 60_000,
  });
  return { ...r, tmp };
}
