import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compareGoOptions, compareTable, median, type RunFigures, type Side } from "./compare-go.js";
import {
  endsIdle,
  type Footprint,
  parseProcStat,
  parseProcStatus,
  readFootprint,
  waitForIdle,
} from "./footprint.js";
import { cachedGoOperator } from "./go-operator.js";

// Abridged from a real /proc/<pid>/status of a Node.js process.
const STATUS = `Name:\tnode
Umask:\t0022
State:\tS (sleeping)
Pid:\t4242
VmPeak:\t 1234560 kB
VmSize:\t 1200000 kB
VmHWM:\t  151552 kB
VmRSS:\t  131072 kB
RssAnon:\t   90000 kB
VmSwap:\t       0 kB
Threads:\t11
`;

describe("parseProcStatus", () => {
  it("reads VmRSS and VmHWM in KiB", () => {
    expect(parseProcStatus(STATUS)).toEqual({ rssKiB: 131072, peakRSSKiB: 151552 });
  });

  it("reads 0 for a process that has no memory figures (a zombie)", () => {
    expect(parseProcStatus("Name:\tmanager\nState:\tZ (zombie)\n")).toEqual({ rssKiB: 0, peakRSSKiB: 0 });
  });
});

describe("parseProcStat", () => {
  it("adds utime and stime, in seconds of 100 clock ticks", () => {
    // Fields 14 and 15 (utime, stime) are 311 and 45 here.
    const stat =
      "4242 (node) S 1 4242 4242 0 -1 4194560 5183 0 0 0 311 45 0 0 20 0 11 0 2275912 1200000000 32768";
    expect(parseProcStat(stat)).toBeCloseTo(3.56, 6);
  });

  it("counts fields after the last parenthesis, so a command name with spaces and ) cannot shift them", () => {
    const stat = "77 (my (odd) proc) R 1 77 77 0 -1 4194304 99 0 0 0 7 3 0 0 20 0 1 0 2275912 3133440 394";
    expect(parseProcStat(stat)).toBeCloseTo(0.1, 6);
  });

  it("refuses text that is not a stat line", () => {
    expect(() => parseProcStat("nonsense")).toThrow(/not a \/proc\/<pid>\/stat line/);
  });
});

describe("endsIdle", () => {
  const reading = (at: number, cpuSeconds: number): Footprint => ({
    at,
    cpuSeconds,
    rssMiB: 50,
    peakRSSMiB: 60,
  });
  const rule = { windowMs: 1000, maxCpuSeconds: 0.01 };

  it("is idle when CPU grew by at most one tick over a whole window", () => {
    expect(endsIdle([reading(0, 0.5), reading(500, 0.5), reading(1000, 0.51)], rule)).toBe(true);
  });

  it("is not idle when CPU grew by two ticks over the window", () => {
    expect(endsIdle([reading(0, 0.5), reading(500, 0.51), reading(1000, 0.52)], rule)).toBe(false);
  });

  it("is not idle before the readings cover a window", () => {
    expect(endsIdle([reading(0, 0.5), reading(900, 0.5)], rule)).toBe(false);
    expect(endsIdle([], rule)).toBe(false);
  });

  it("measures from the newest reading at least a window old", () => {
    // Busy until 200 ms, flat since: the window 200..1300 is flat.
    expect(endsIdle([reading(0, 0.1), reading(200, 0.9), reading(1300, 0.9)], rule)).toBe(true);
  });
});

describe("waitForIdle on real processes", () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill("SIGKILL");
    child = undefined;
  });

  it("returns the reading of a process that sleeps once it is ready, with its RSS and CPU so far", async () => {
    child = spawn(process.execPath, ["-e", "setInterval(() => {}, 60_000)"], { stdio: "ignore" });
    const pid = child.pid ?? 0;
    let asked = 0;
    const idle = await waitForIdle(pid, async () => ++asked >= 3, {
      windowMs: 500,
      maxCpuSeconds: 0.01,
      pollMs: 50,
      timeoutMs: 20_000,
    });
    expect(asked).toBe(3);
    expect(idle.rssMiB).toBeGreaterThan(10);
    expect(idle.peakRSSMiB).toBeGreaterThanOrEqual(idle.rssMiB);
    expect(idle.cpuSeconds).toBeGreaterThan(0);
    expect(readFootprint(pid).cpuSeconds).toBeGreaterThanOrEqual(idle.cpuSeconds);
  });

  it("gives up on a busy process, saying how busy", async () => {
    // A process that spends 5 ticks per 100 ms, read through a fake /proc so the machine's load cannot
    // starve it into looking idle.
    let cpu = 0;
    const busy = (): Footprint => {
      cpu += 0.05;
      return { at: performance.now(), cpuSeconds: cpu, rssMiB: 80, peakRSSMiB: 90 };
    };
    const rule = { windowMs: 300, maxCpuSeconds: 0.01, pollMs: 50, timeoutMs: 1500 };
    await expect(waitForIdle(1, async () => true, rule, busy)).rejects.toThrow(
      /process 1 did not go idle within 1500 ms: \d+\.\d\d s CPU in the last \d+\.\d s/,
    );
  });
});

describe("compareTable", () => {
  const run = (side: Side, scale: number): RunFigures => ({
    side,
    convergedSeconds: 0.3 * scale,
    statusP50Ms: 5 * scale,
    statusP99Ms: 14 * scale,
    peakRSSMiB: 100 * scale,
    idleRSSMiB: 40 * scale,
    cpuWholeSeconds: 3 * scale,
    cpuStartToIdleSeconds: 0.1 * scale,
    readySeconds: 0.5 * scale,
  });

  it("prints medians per side, TS/Go and whether each goal holds", () => {
    const table = compareTable([run("TS", 2), run("Go", 1), run("TS", 4), run("Go", 1)]);
    expect(table).toContain(
      "| idle RSS after cache sync | 120 MiB | n/a | 40 MiB | 3.00 | ≤ 1.15× (not met) |",
    );
    expect(table).toContain(
      "| pod change → status p50 / p99 | 15.0 / 42.0 ms | n/a | 5.0 / 14.0 ms | 3.00 / 3.00 |  |",
    );
    expect(table).toContain("| CPU, start to idle | 0.30 s | n/a | 0.10 s | 3.00 | ≤ 2.5× (not met) |");
  });

  it("judges the production build against Go when it ran", () => {
    const table = compareTable([run("TS", 4), run("bundle", 1.1), run("Go", 1)]);
    expect(table).toContain("| CPU, start to idle | 0.40 s | 0.11 s | 0.10 s | 1.10 | ≤ 2.5× (met) |");
    expect(table).toContain(
      "| process start → /readyz 200 | 2.00 s | 0.55 s | 0.50 s | 1.10 | ≤ 1.5× (met) |",
    );
    expect(table).toContain("| peak RSS | 400 MiB | 110 MiB | 100 MiB | 1.10 | ≤ 1× (not met) |");
  });

  it("says the Go side was skipped when it was", () => {
    const table = compareTable([run("TS", 1)], "go not on PATH");
    expect(table).toContain("| peak RSS | 100 MiB | n/a | skipped | n/a | ≤ 1× |");
  });
});

describe("compareGoOptions", () => {
  it("defaults to the issue's run: 10,000 pods, 100 namespaces, 4 concurrent reconciles, TS, Go, TS, Go", () => {
    expect(compareGoOptions({})).toEqual({
      pods: 10000,
      namespaces: 100,
      samples: 200,
      rounds: 2,
      concurrency: 32,
      maxConcurrentReconciles: 4,
    });
    expect(compareGoOptions({ pods: "500", rounds: "3", project: "/p" })).toMatchObject({
      pods: 500,
      rounds: 3,
      project: "/p",
    });
  });

  it("names the flag of a bad count", () => {
    expect(() => compareGoOptions({ rounds: "0" })).toThrow(
      '--rounds must be a positive whole number, got "0"',
    );
    expect(() => compareGoOptions({ pods: "1e4" })).toThrow(/^--pods must be/);
    expect(() => compareGoOptions({ pods: "100", samples: "200" })).toThrow(
      /--samples \(200\) cannot exceed --pods/,
    );
  });

  it("takes the mean of the middle two of an even count", () => {
    expect(median([4, 1])).toBe(2.5);
    expect(median([3, 1, 2])).toBe(2);
  });
});

describe("cachedGoOperator", () => {
  it("names the missing go and the make target when neither go nor the binary is there", async () => {
    const { PATH: path, XDG_CACHE_HOME: cache } = process.env;
    process.env.PATH = "/nonexistent";
    // An empty cache: a built operator runs without Go, so only a missing one needs it.
    const empty = mkdtempSync(join(tmpdir(), "kbts-go-operator-"));
    process.env.XDG_CACHE_HOME = empty;
    try {
      const go = await cachedGoOperator();
      expect(go).toEqual({
        ok: false,
        reason: expect.stringMatching(/^go not on PATH.*make bench-go-operator/),
      });
    } finally {
      process.env.PATH = path;
      if (cache === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = cache;
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
