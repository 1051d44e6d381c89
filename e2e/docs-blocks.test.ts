/**
 * Every code block of the kbts book runs, or says why not: TypeScript blocks type-check against the
 * built @kbts/runtime (e2e/docs-blocks.ts: a changed API breaks the docs, not a reader), and shell
 * blocks run as written against a local control plane, with the conventions of
 * e2e/support/readme-blocks.ts. A block marked `sh no-run` / `ts no-check` needs what this machine has
 * not (Docker, a real cluster, a published package, a hand edit, a package kbts does not depend on).
 * The quick start's flow was kbts' README's "Using kbts" block; it runs here now, and only here.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildProgram } from "../src/cli/main.js";
import {
  allBlocks,
  bookPages,
  codeBlocks,
  includedFiles,
  kbtsCommandProblem,
  shellWords,
  typecheckBlocks,
  withIncludes,
} from "./docs-blocks.js";
import { REPO } from "./support/paths.js";
import { readmeSteps, runShellSteps } from "./support/readme-blocks.js";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-docs-blocks-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const QUICK_START = "docs/guide/quick-start.md";
/** The sections whose shell blocks this file runs: page, then `## heading`. */
const ENVTEST = "docs/operations/envtest.md";
const RUN = [
  { file: QUICK_START, section: "Create a project and run it" },
  { file: ENVTEST, section: "A local cluster without Docker: envtest's cluster mode" },
];

const SHELL = new Set(["sh", "bash", "shell"]);

describe("the book's code blocks", () => {
  it("runs or checks every shell and TypeScript block, or marks it no-run / no-check", () => {
    const unaccounted: string[] = [];
    for (const file of new Set(allBlocks().map((b) => b.file))) {
      const markdown = readFileSync(join(REPO, file), "utf8");
      const lines = markdown.split("\n");
      for (const b of codeBlocks(markdown, join(REPO, file))) {
        if (SHELL.has(b.lang) && !b.flags.includes("no-run")) {
          // The section the block sits in: the last `## ` heading above it.
          const heading = lines
            .slice(0, b.line)
            .reverse()
            .find((l) => l.startsWith("## "));
          const run = RUN.some((r) => r.file === file && heading === `## ${r.section}`);
          if (!run) unaccounted.push(`${file}:${b.line}: a ${b.lang} block no test runs`);
        }
        if (b.flags.length && !["no-run", "no-check"].includes(b.flags[0] ?? ""))
          unaccounted.push(`${file}:${b.line}: unknown fence flag ${b.flags.join(" ")}`);
      }
    }
    expect(unaccounted).toEqual([]);
  });

  it("writes every kbts command of every shell block (run or not, included READMEs too) as kbts accepts it", () => {
    const program = buildProgram();
    const problems: string[] = [];
    let checked = 0;
    for (const file of [...bookPages(), join(REPO, "README.md")]) {
      const page = withIncludes(readFileSync(file, "utf8"), file);
      const shell = codeBlocks(page, file).filter((b) => SHELL.has(b.lang));
      for (const step of readmeSteps(shell)) {
        for (const part of step.command.split(/&&|;|\|/)) {
          const words = shellWords(part.trim());
          if (words[0] !== "kbts") continue;
          checked++;
          const problem = kbtsCommandProblem(program, words);
          if (problem) problems.push(`${file.slice(REPO.length)} (block at ${step.line}): ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(20);
    // And it would say so: a flag kbts does not have, and a command it does not have.
    expect(kbtsCommandProblem(program, shellWords("kbts envtest start --cluster &   # a cluster"))).toBe(
      "kbts envtest start has no option --cluster",
    );
    expect(kbtsCommandProblem(program, shellWords("kbts create apis --group x"))).toBe(
      'no command "kbts create apis"',
    );
  });

  it("type-checks every TypeScript block of the book, the READMEs it includes and the README", () => {
    const others = [...includedFiles(), join(REPO, "README.md")].flatMap((f) =>
      codeBlocks(readFileSync(f, "utf8"), f),
    );
    const blocks = [...allBlocks(), ...others].filter(
      (b) => b.lang === "ts" && !b.flags.includes("no-check"),
    );
    expect(blocks.length).toBeGreaterThanOrEqual(9);
    expect(blocks.map((b) => b.file)).toEqual(
      expect.arrayContaining(["README.md", "testdata/tutorial-crontab/README.md"]),
    );
    expect(typecheckBlocks(blocks)).toEqual([]);
  }, 120_000);

  it("reports a TypeScript block that uses an API the runtime lacks at its page line", () => {
    const page = [
      "# p",
      "",
      "```ts",
      "const mgr = createManager({});",
      "mgr.startEverything();",
      "```",
      "",
    ].join("\n");
    const errors = typecheckBlocks(codeBlocks(page, join(REPO, "docs/guide/x.md")));
    expect(errors).toEqual([
      expect.stringMatching(/^docs\/guide\/x\.md:5: Property 'startEverything' does not exist/),
    ]);
  }, 120_000);
});

describe("the README, the book's front door", () => {
  it("links only to pages and files that exist", () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(#[^)\s]*)?\)/g)]
      .map((m) => m[1]!)
      .filter((t) => !/^[a-z]+:/.test(t));
    expect(targets.length).toBeGreaterThanOrEqual(15);
    expect(targets.filter((t) => !existsSync(join(REPO, t)))).toEqual([]);
  });
});

describe.sequential("the book's shell blocks, run as written against a local control plane", () => {
  it("envtest's cluster mode: three simulated GPU nodes, Ready", async () => {
    const page = readFileSync(join(REPO, ENVTEST), "utf8");
    const r = await runShellSteps(ENVTEST, page, join(work, "cluster"), RUN[1]!.section);
    expect(r.steps.length).toBe(4);
    expect(r.exitCode, r.output.slice(-6000)).toBe(0);
    for (const node of ["kwok-node-0", "kwok-node-1", "kwok-node-2"])
      expect(r.output).toMatch(new RegExp(`^${node}\\s+8$`, "m"));
  }, 300_000);

  it("init, create api and webhook, test, a local control plane, make run", async () => {
    const page = readFileSync(join(REPO, QUICK_START), "utf8");
    const r = await runShellSteps(QUICK_START, page, join(work, "memcached"), RUN[0]!.section);
    expect(r.steps.length).toBeGreaterThanOrEqual(8);
    expect(r.exitCode, r.output.slice(-6000)).toBe(0);
    expect(r.output).toMatch(/==> docs\/guide\/quick-start\.md:\d+: make run/);
  }, 900_000);

  it("a page missing a line the flow needs fails at the step that needed it", async () => {
    const page = readFileSync(join(REPO, QUICK_START), "utf8");
    const mutated = page.replace(/^kbts init .*\n/m, "");
    expect(mutated).not.toBe(page);
    const r = await runShellSteps(QUICK_START, mutated, join(work, "memcached-mutated"), RUN[0]!.section);
    expect(r.exitCode).not.toBe(0);
    const lastStep = [...r.output.matchAll(/^==> (.*)$/gm)].pop()?.[1];
    expect(lastStep).toMatch(/quick-start\.md:\d+: kbts create api/);
    expect(r.output).toMatch(/PROJECT/);
  }, 300_000);
});
