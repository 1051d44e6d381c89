/**
 * make test's closing lines (e2e/tools/test-summary.ts) on real vitest JSON reports of a small scratch
 * suite: the counts agree with vitest's own, every test that did not run is named, and a missing report
 * fails naming it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../support/paths.js";
import { readResults, SUMMARY_LINE, summarize, summaryLines, type VitestResults } from "./test-summary.js";

const VITEST = join(REPO, "node_modules/.bin/vitest");
const work = mkdtempSync(join(tmpdir(), "kbts-test-summary-"));

// Every way a test ends up not run, beside a pass and a failure.
const SCRATCH = `import { describe, expect, it } from "vitest";
describe("group", () => {
  it("passes", () => expect(1).toBe(1));
  it("fails", () => expect(1).toBe(2));
  it.skip("is skipped", () => {});
  it("skips itself", (ctx) => ctx.skip());
  it.todo("is to do");
});
describe.runIf(false)("never", () => {
  it("is not run", () => {});
});
`;

/** vitest's own JSON report of the scratch suite (`suite` names its report file); its exit code. */
async function report(suite: string, test = SCRATCH): Promise<number | undefined> {
  writeFileSync(join(work, `${suite}.test.ts`), test);
  const run = await execa(
    VITEST,
    ["run", `${suite}.test.ts`, "--reporter=json", `--outputFile.json=${suite}.json`],
    {
      cwd: work,
      reject: false,
      env: { CI: "1" },
    },
  );
  return run.exitCode;
}

beforeAll(async () => {
  // The scratch suite fails on purpose (vitest exits 1); the clean one passes.
  expect(await report("scratch")).toBe(1);
  expect(
    await report("clean", `import { expect, it } from "vitest";\nit("passes", () => expect(1).toBe(1));\n`),
  ).toBe(0);
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the test summary", () => {
  it("counts as vitest does and names each test that did not run", () => {
    const raw = JSON.parse(readFileSync(join(work, "scratch.json"), "utf8")) as VitestResults & {
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
      numTodoTests: number;
    };
    const summary = summarize(readResults(work, ["scratch", "clean"]), work);
    expect(summary.passed).toBe(raw.numPassedTests + 1);
    expect(summary.failed).toBe(raw.numFailedTests);
    expect(summary.skipped.length).toBe(raw.numPendingTests + raw.numTodoTests);
    expect(summary.skipped).toEqual([
      { suite: "scratch", file: "scratch.test.ts", name: "group is skipped" },
      { suite: "scratch", file: "scratch.test.ts", name: "group skips itself" },
      { suite: "scratch", file: "scratch.test.ts", name: "group is to do" },
      { suite: "scratch", file: "scratch.test.ts", name: "never is not run" },
    ]);
    const lines = summaryLines(summary);
    expect(lines.at(-1)).toBe("tests: 2 passed, 1 failed, 4 skipped");
    expect(lines).toContain("skipped (scratch): scratch.test.ts > group is skipped");
    expect(SUMMARY_LINE.exec(lines.join("\n"))?.slice(1)).toEqual(["2", "1", "4"]);
  });

  it("names the slowest files, slowest first, and the wall time since the run began", () => {
    const summary = summarize(readResults(work, ["scratch", "clean"]), work);
    expect(summary.files.map((f) => f.file).sort()).toEqual(["clean.test.ts", "scratch.test.ts"]);
    expect(summary.files[0]?.ms).toBeGreaterThanOrEqual(summary.files[1]?.ms ?? Number.POSITIVE_INFINITY);
    const started = Date.UTC(2026, 0, 1, 10, 0, 0);
    const lines = summaryLines(summary, started, started + 23 * 60_000 + 4_000);
    expect(lines[0]).toBe("slowest 2 test files:");
    expect(lines[1]).toMatch(/^ +\d+s {2}\S+\.test\.ts \((scratch|clean)\)$/);
    expect(lines).toContain("wall time: 23m 04s");
    expect(summaryLines(summary).some((l) => l.startsWith("wall time"))).toBe(false);
  });

  it("prints the closing line from make, and fails naming a missing report", async () => {
    const script = join(REPO, "e2e/tools/test-summary.ts");
    const run = (suites: string[]) =>
      execa("node", ["--import", "tsx", script, work, ...suites], { cwd: REPO, reject: false });
    const clean = await run(["clean"]);
    expect(clean.exitCode, clean.stderr).toBe(0);
    expect(clean.stdout.split("\n").at(-1)).toBe("tests: 1 passed, 0 failed, 0 skipped");
    expect(clean.stdout).toMatch(/^slowest 1 test files:\n +\d+s {2}\S*clean\.test\.ts \(clean\)\n/);
    const missing = await run(["clean", "e2e"]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain(`${join(work, "e2e.json")} is missing: the e2e tests did not run`);
  });
});
