/** Running `kbts envtest start` as a user does, and checking what it leaves behind (processes, temp dirs). */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { execa } from "execa";
import { cmdlineOf, processes, statOf } from "../../runtime/src/internal/proc.js";
import { KBTS } from "./paths.js";

/** The live processes descended from pid (its children, theirs, …), found by parent pid in /proc. */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const p of processes()) {
    if (p.state !== "Z") children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  }
  const out: number[] = [];
  const walk = (parent: number) => {
    for (const c of children.get(parent) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/** Those of pids that are still running (neither gone nor zombies). */
export function stillRunning(pids: number[]): number[] {
  return pids.filter((pid) => {
    const state = statOf(pid)?.state;
    return state !== undefined && state !== "Z";
  });
}

/** The program names (argv[0]'s base name) of pids, sorted; "sh" for the children's watchdogs. */
export function programsOf(pids: number[]): string[] {
  return pids
    .map((pid) => {
      const cmdline = cmdlineOf(pid);
      return cmdline ? basename(cmdline.split("\0")[0] ?? "") : "(gone)";
    })
    .sort();
}

/** Sends signal to the child; resolves with how it exited and how long that took (fails after 30 s). */
export function stopWith(
  child: ChildProcess,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  return new Promise((resolve, reject) => {
    const t = Date.now();
    const timer = setTimeout(() => reject(new Error(`still running 30 s after ${signal}`)), 30_000);
    child.once("exit", (code, sig) => {
      clearTimeout(timer);
      resolve({ code, signal: sig, ms: Date.now() - t });
    });
    child.kill(signal);
  });
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

export interface StoppedCLI {
  /** How it exited and how long after the signal. */
  exit: { code: number | null; signal: NodeJS.Signals | null; ms: number };
  stderr: string;
  /** Program names of its descendants while it ran (the control plane and the watchdogs). */
  programs: string[];
  /** Its descendants still running, and what is left in its TMPDIR, `settleMs` after it exited. */
  left: number[];
  leftDirs: string[];
}

/**
 * Starts `kbts envtest start args`, sends it signal once it runs, and reports what is left of it: at
 * once after its exit, or, with settleMs (after a SIGKILL, the children go by themselves), as soon as
 * nothing is left or settleMs have passed.
 */
export async function startAndStop(
  args: string[],
  options: { work: string; assets: string; started: ChildProcess[]; timeoutMs?: number },
  signal: NodeJS.Signals,
  settleMs = 0,
): Promise<StoppedCLI> {
  const { child, tmp, stderr } = await startEnvtestCLI(args, options);
  const plane = descendantsOf(child.pid ?? 0);
  const programs = programsOf(plane);
  const exit = await stopWith(child, signal);
  const deadline = Date.now() + settleMs;
  let left = stillRunning(plane);
  let leftDirs = readdirSync(tmp);
  while ((left.length > 0 || leftDirs.length > 0) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    left = stillRunning(plane);
    leftDirs = readdirSync(tmp);
  }
  return { exit, stderr: stderr(), programs, left, leftDirs };
}
