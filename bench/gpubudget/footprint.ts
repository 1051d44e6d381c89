/**
 * An operator process's footprint, read from /proc the same way for any process (a Node.js operator, a
 * Go one): resident memory now (VmRSS) and at its peak (VmHWM), CPU spent (utime + stime), and the
 * moment it goes idle after start-up, with what it cost to get there.
 *
 * Idle, precisely: the first sample, taken every `pollMs` after `ready()` first answered true, at which
 * the process's utime + stime grew by at most `maxCpuSeconds` (default 0.01 s: one clock tick, 1% of a
 * CPU) over the preceding `windowMs` (default 1 s), every sample of that window also being after
 * ready. At that moment "start to idle" CPU is the process's whole utime + stime since exec and "idle
 * RSS" is its VmRSS. The bench's `ready()` is: the readiness probe answers (caches synced) and every
 * budget's status reports its generation (the start-up reconciles are done), before any pod exists.
 */
import { readFileSync } from "node:fs";

/** Linux reports utime and stime in USER_HZ clock ticks, 100 per second on every architecture Node runs on. */
export const CLOCK_TICKS_PER_SECOND = 100;

/** VmRSS and VmHWM of a /proc/<pid>/status text, in KiB (0 when absent: a zombie has neither). */
export function parseProcStatus(text: string): { rssKiB: number; peakRSSKiB: number } {
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, "m").exec(text)?.[1] ?? "0");
  return { rssKiB: field("VmRSS"), peakRSSKiB: field("VmHWM") };
}

/**
 * utime + stime of a /proc/<pid>/stat line, in seconds. The command name (field 2) is in parentheses
 * and may itself hold spaces or ")", so fields are counted from the last ")".
 */
export function parseProcStat(text: string): number {
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // After the name: state is field 3, so utime (14) and stime (15) are at 11 and 12.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime))
    throw new Error(`not a /proc/<pid>/stat line: ${text}`);
  return (utime + stime) / CLOCK_TICKS_PER_SECOND;
}

/** utime + stime of a process, in seconds. */
export function cpuSeconds(pid: number): number {
  return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
}

/** A process's peak resident set (VmHWM), in MiB. */
export function peakRSSMiB(pid: number): number {
  return parseProcStatus(readFileSync(`/proc/${pid}/status`, "utf8")).peakRSSKiB / 1024;
}

/** A process's resident set now (VmRSS), in MiB. */
export function rssMiB(pid: number): number {
  return parseProcStatus(readFileSync(`/proc/${pid}/status`, "utf8")).rssKiB / 1024;
}

/** One reading of a process. */
export interface Footprint {
  /** performance.now() when read. */
  at: number;
  cpuSeconds: number;
  rssMiB: number;
  peakRSSMiB: number;
}

export function readFootprint(pid: number): Footprint {
  const status = parseProcStatus(readFileSync(`/proc/${pid}/status`, "utf8"));
  return {
    at: performance.now(),
    cpuSeconds: cpuSeconds(pid),
    rssMiB: status.rssKiB / 1024,
    peakRSSMiB: status.peakRSSKiB / 1024,
  };
}

export interface IdleRule {
  /** The window CPU must stay flat over (ms). */
  windowMs: number;
  /** The most CPU (s) the process may spend within the window and still be idle. */
  maxCpuSeconds: number;
  /** How often the process is read (ms). */
  pollMs: number;
  /** Give up after this long (ms) from the call. */
  timeoutMs: number;
}

export const DEFAULT_IDLE_RULE: IdleRule = {
  windowMs: 1000,
  maxCpuSeconds: 0.01,
  pollMs: 100,
  timeoutMs: 120_000,
};

/**
 * Whether the readings (oldest first, all taken after ready) end idle: the window before the last one
 * is covered, and CPU grew by at most rule.maxCpuSeconds over it.
 */
export function endsIdle(
  readings: readonly Footprint[],
  rule: Pick<IdleRule, "windowMs" | "maxCpuSeconds">,
): boolean {
  const last = readings.at(-1);
  if (!last) return false;
  // The newest reading at least a window old: the window's start.
  let start: Footprint | undefined;
  for (const r of readings) {
    if (last.at - r.at >= rule.windowMs) start = r;
    else break;
  }
  // Rounded to a tick, so float sums of ticks (0.01 + 0.02) compare as ticks.
  const grew = Math.round((last.cpuSeconds - (start?.cpuSeconds ?? Number.NaN)) * CLOCK_TICKS_PER_SECOND);
  return start !== undefined && grew <= Math.round(rule.maxCpuSeconds * CLOCK_TICKS_PER_SECOND);
}

/**
 * Waits until the process is idle after start-up (see the module comment) and returns the reading at
 * that moment (`read` is for tests). Throws when the process exits, or is not idle within rule.timeoutMs (naming the last
 * window's CPU, so a busy operator says how busy).
 */
export async function waitForIdle(
  pid: number,
  ready: () => Promise<boolean>,
  rule: IdleRule = DEFAULT_IDLE_RULE,
  read: (pid: number) => Footprint = readFootprint,
): Promise<Footprint> {
  const deadline = performance.now() + rule.timeoutMs;
  const sleep = () => new Promise((resolve) => setTimeout(resolve, rule.pollMs));
  while (!(await ready())) {
    if (performance.now() > deadline)
      throw new Error(`process ${pid} was not ready within ${rule.timeoutMs} ms`);
    await sleep();
  }
  const readings: Footprint[] = [];
  for (;;) {
    readings.push(read(pid));
    // Keep what a window needs; older readings cannot be a window's start any more.
    while (readings.length > 2 && (readings.at(-1)?.at ?? 0) - (readings[1]?.at ?? 0) >= rule.windowMs) {
      readings.shift();
    }
    if (endsIdle(readings, rule)) return readings.at(-1) as Footprint;
    if (performance.now() > deadline) {
      const first = readings[0] as Footprint;
      const last = readings.at(-1) as Footprint;
      throw new Error(
        `process ${pid} did not go idle within ${rule.timeoutMs} ms: ${(last.cpuSeconds - first.cpuSeconds).toFixed(2)} s CPU in the last ${((last.at - first.at) / 1000).toFixed(1)} s`,
      );
    }
    await sleep();
  }
}
