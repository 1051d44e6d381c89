/**
 * The closing lines of `make test` and `make test-all`: the vitest JSON results of the suites that ran,
 * added up into `tests: N passed, N failed, N skipped` (CI reads this line), preceded by the slowest
 * test files (where the time goes), the run's wall time, and one line per test that did not run, so a
 * skip is seen by name and never only as a number.
 *
 *   node --import tsx e2e/tools/test-summary.ts <results dir> <suite>...
 *
 * reads `<results dir>/<suite>.json` for each suite (vitest's `--reporter=json` output), and
 * `<results dir>/started-at` (seconds since the epoch, written when the run began) when it exists.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The part of vitest's JSON report the summary reads. */
export interface VitestResults {
  testResults: {
    name: string;
    startTime?: number;
    endTime?: number;
    assertionResults: { fullName: string; status: string }[];
  }[];
}

/** A test that did not run (vitest: skipped, pending or todo), by suite, file and full name. */
export interface SkippedTest {
  suite: string;
  file: string;
  name: string;
}

/** A test file's wall time in one suite. */
export interface FileTime {
  suite: string;
  file: string;
  ms: number;
}

export interface TestSummary {
  passed: number;
  failed: number;
  skipped: SkippedTest[];
  /** Every file's wall time, slowest first. */
  files: FileTime[];
}

/** How many of the slowest files the summary names. */
export const SLOWEST = 10;

/** Adds up suites' results; `root` makes the files' paths relative (the reports hold absolute ones). */
export function summarize(suites: { suite: string; results: VitestResults }[], root: string): TestSummary {
  const summary: TestSummary = { passed: 0, failed: 0, skipped: [], files: [] };
  for (const { suite, results } of suites) {
    for (const file of results.testResults) {
      if (file.startTime !== undefined && file.endTime !== undefined) {
        summary.files.push({ suite, file: relative(root, file.name), ms: file.endTime - file.startTime });
      }
      for (const test of file.assertionResults) {
        if (test.status === "passed") summary.passed++;
        else if (test.status === "failed") summary.failed++;
        else summary.skipped.push({ suite, file: relative(root, file.name), name: test.fullName });
      }
    }
  }
  summary.files.sort((a, b) => b.ms - a.ms);
  return summary;
}

/** Reads `<dir>/<suite>.json` for each suite; a missing report is an error naming it. */
export function readResults(dir: string, suites: string[]): { suite: string; results: VitestResults }[] {
  return suites.map((suite) => {
    const path = join(dir, `${suite}.json`);
    if (!existsSync(path)) {
      throw new Error(`${path} is missing: the ${suite} tests did not run or did not finish (see above)`);
    }
    return { suite, results: JSON.parse(readFileSync(path, "utf8")) as VitestResults };
  });
}

/** `1h 02m 03s`, `4m 05s`, `6s`. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}h ${pad(m)}m ${pad(sec)}s` : m > 0 ? `${m}m ${pad(sec)}s` : `${sec}s`;
}

/**
 * The lines printed: the slowest files, the wall time since `startedAtMs` (when known), each skipped
 * test, then the closing count.
 */
export function summaryLines(summary: TestSummary, startedAtMs?: number, nowMs = Date.now()): string[] {
  const slowest = summary.files.slice(0, SLOWEST);
  return [
    `slowest ${slowest.length} test files:`,
    ...slowest.map((f) => `  ${formatDuration(f.ms).padStart(11)}  ${f.file} (${f.suite})`),
    ...(startedAtMs === undefined ? [] : [`wall time: ${formatDuration(nowMs - startedAtMs)}`]),
    ...summary.skipped.map((t) => `skipped (${t.suite}): ${t.file} > ${t.name}`),
    `tests: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped.length} skipped`,
  ];
}

/** The suites make test-all runs, each with its .test-results/<suite>.json (the Makefile names them too). */
export const SUITES = ["unit", "unit-lts", "integration", "e2e", "e2e-timed"];

/** The closing line's pattern, for whoever reads it back (e2e/fresh-clone.test.ts). */
export const SUMMARY_LINE = /^tests: (\d+) passed, (\d+) failed, (\d+) skipped$/m;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [dir, ...suites] = process.argv.slice(2);
  if (!dir || suites.length === 0) {
    console.error("usage: node --import tsx e2e/tools/test-summary.ts <results dir> <suite>...");
    process.exit(2);
  }
  try {
    const startedAt = join(dir, "started-at");
    const startedAtMs = existsSync(startedAt)
      ? Number(readFileSync(startedAt, "utf8").trim()) * 1000
      : undefined;
    const summary = summarize(readResults(dir, suites), process.cwd());
    for (const line of summaryLines(summary, startedAtMs)) console.log(line);
  } catch (err) {
    console.error(`test summary: ${(err as Error).message}`);
    process.exit(1);
  }
}
