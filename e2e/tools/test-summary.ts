/**
 * The closing lines of `make test` and `make test-all`: the vitest JSON results of the suites that ran,
 * added up into `tests: N passed, N failed, N skipped` (CI reads this line), preceded by one line per
 * test that did not run, so a skip is seen by name and never only as a number.
 *
 *   node --import tsx e2e/tools/test-summary.ts <results dir> <suite>...
 *
 * reads `<results dir>/<suite>.json` for each suite (vitest's `--reporter=json` output).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The part of vitest's JSON report the summary reads. */
export interface VitestResults {
  testResults: {
    name: string;
    assertionResults: { fullName: string; status: string }[];
  }[];
}

/** A test that did not run (vitest: skipped, pending or todo), by suite, file and full name. */
export interface SkippedTest {
  suite: string;
  file: string;
  name: string;
}

export interface TestSummary {
  passed: number;
  failed: number;
  skipped: SkippedTest[];
}

/** Adds up suites' results; `root` makes the files' paths relative (the reports hold absolute ones). */
export function summarize(suites: { suite: string; results: VitestResults }[], root: string): TestSummary {
  const summary: TestSummary = { passed: 0, failed: 0, skipped: [] };
  for (const { suite, results } of suites) {
    for (const file of results.testResults) {
      for (const test of file.assertionResults) {
        if (test.status === "passed") summary.passed++;
        else if (test.status === "failed") summary.failed++;
        else summary.skipped.push({ suite, file: relative(root, file.name), name: test.fullName });
      }
    }
  }
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

/** The lines printed: each skipped test, then the closing count. */
export function summaryLines(summary: TestSummary): string[] {
  return [
    ...summary.skipped.map((t) => `skipped (${t.suite}): ${t.file} > ${t.name}`),
    `tests: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped.length} skipped`,
  ];
}

/** The closing line's pattern, for whoever reads it back (e2e/fresh-clone.test.ts). */
export const SUMMARY_LINE = /^tests: (\d+) passed, (\d+) failed, (\d+) skipped$/m;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [dir, ...suites] = process.argv.slice(2);
  if (!dir || suites.length === 0) {
    console.error("usage: node --import tsx e2e/tools/test-summary.ts <results dir> <suite>...");
    process.exit(2);
  }
  try {
    for (const line of summaryLines(summarize(readResults(dir, suites), process.cwd()))) console.log(line);
  } catch (err) {
    console.error(`test summary: ${(err as Error).message}`);
    process.exit(1);
  }
}
