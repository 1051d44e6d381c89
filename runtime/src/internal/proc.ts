/** This machine's processes as Linux's /proc shows them: envtest's exit hook and the tests' process checks. */
import { readdirSync, readFileSync } from "node:fs";

export interface ProcessEntry {
  pid: number;
  /** R, S, D, Z (a zombie: exited, not yet reaped), … */
  state: string;
  ppid: number;
  /** The process group. */
  pgrp: number;
  /** When it started, in clock ticks (USER_HZ, 100) since boot. */
  startTicks: number;
}

/** Every process, from its /proc/PID/stat; one that exits while being read is left out. */
export function processes(): ProcessEntry[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => statOf(Number(entry)))
    .filter((p): p is ProcessEntry => p !== undefined);
}

/** One process, from its /proc/PID/stat; undefined once it has gone (a zombie is still there, state Z). */
export function statOf(pid: number): ProcessEntry | undefined {
  try {
    // After the command name, which may hold spaces: state, ppid, pgrp, … starttime (stat's 22nd field).
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
      .replace(/^.*\) /, "")
      .split(" ");
    return {
      pid,
      state: fields[0] ?? "",
      ppid: Number(fields[1]),
      pgrp: Number(fields[2]),
      startTicks: Number(fields[19]),
    };
  } catch {
    return undefined;
  }
}

/** Live (non-zombie) processes whose command line mentions text (e.g. a temp dir of an environment). */
export function processesMentioning(text: string): number[] {
  return processes()
    .filter((p) => p.state !== "Z" && cmdlineOf(p.pid).includes(text))
    .map((p) => p.pid);
}

/** A process's arguments as the kernel keeps them, each ended by NUL; "" once it has gone. */
export function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}
