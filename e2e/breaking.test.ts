/**
 * The breaking-change gate as a user meets it: `make verify-api` in the scaffolded GPUBudget project
 * (a git repository tagged at its first release) passes, fails on a tightened bound naming the marker,
 * and passes again once the change is accepted with a reason; and the built CLI, interrupted while it
 * generates the base, leaves no worktree behind.
 */
import { execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMake } from "./support/make.js";
import { KBTS, REPO } from "./support/paths.js";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-breaking-"));
const project = join(work, "project");
const types = join(project, "api", "v1alpha1", "gpubudget_types.ts");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
  GIT_CONFIG_GLOBAL: "/dev/null",
};
const git = (...args: string[]) =>
  execFileSync("git", ["-C", project, ...args], { encoding: "utf8", env: GIT_ENV });
const worktrees = () => git("worktree", "list", "--porcelain").match(/^worktree /gm)?.length;

async function make(target: string): Promise<{ code: number; out: string }> {
  const r = await runMake(project, target, GIT_ENV, { ci: false });
  return { code: r.exitCode ?? 1, out: r.all ?? "" };
}

beforeAll(() => {
  cpSync(join(REPO, "testdata", "project-gpubudget"), project, { recursive: true });
  // The project's kbts is this checkout's CLI (what `npm install` links in a project made from it).
  mkdirSync(join(project, "node_modules", ".bin"), { recursive: true });
  symlinkSync(KBTS, join(project, "node_modules", ".bin", "kbts"));
  git("init", "--quiet", "--initial-branch=main");
  git("add", ".");
  git("commit", "--quiet", "-m", "v0.1.0");
  git("tag", "v0.1.0");
});

describe("make verify-api in the scaffolded GPUBudget project", () => {
  it("passes against the last release tag while the API is unchanged", async () => {
    const { code, out } = await make("verify-api");
    expect(out).toContain("kbts manifests --breaking-since v0.1.0");
    expect(out).toMatch(/no breaking changes: 1 CRD\(s\) compared with v0\.1\.0/);
    expect(code).toBe(0);
  }, 120_000);

  it("fails on a tightened bound, naming the field and the marker's file:line", async () => {
    const source = readFileSync(types, "utf8");
    writeFileSync(
      types,
      source.replace(
        "  // +kubebuilder:validation:Minimum=0\n  maxGPUs",
        "  // +kubebuilder:validation:Minimum=1\n  maxGPUs",
      ),
    );
    // The marker's line is the one just above maxGPUs: other fields carry Minimum=1 too.
    const line = readFileSync(types, "utf8").split("\n").indexOf("  maxGPUs: int64;");
    expect(line).toBeGreaterThan(0);
    const { code, out } = await make("verify-api");
    expect(out).toContain(
      "breaking: gpubudgets.capacity.lab.example.com v1alpha1 .spec.maxGPUs: minimum tightened from 0 to 1",
    );
    expect(out).toContain(
      `by +kubebuilder:validation:Minimum=1 at api/v1alpha1/gpubudget_types.ts:${line}:6`,
    );
    expect(out).toContain("error: 1 breaking change(s) since v0.1.0");
    expect(code).not.toBe(0);
    expect(worktrees()).toBe(1);
  }, 120_000);

  it("passes once the change is accepted, printing the reason", async () => {
    const source = readFileSync(types, "utf8");
    writeFileSync(
      types,
      source.replace(
        "  // +kubebuilder:validation:Minimum=1\n  maxGPUs",
        '  // +kubebuilder:validation:Minimum=1\n  // +kbts:breaking:accept="a budget of 0 GPUs was never useful"\n  maxGPUs',
      ),
    );
    const { code, out } = await make("verify-api");
    expect(out).toContain("accepted: gpubudgets.capacity.lab.example.com v1alpha1 .spec.maxGPUs");
    expect(out).toContain("a budget of 0 GPUs was never useful");
    expect(code).toBe(0);
  }, 120_000);
});

describe("kbts manifests --breaking-since, interrupted", () => {
  it("removes its temporary worktree on SIGINT", async () => {
    // Caught while the base's worktree exists: a run can finish before it is seen, so try a few times.
    for (let attempt = 0; attempt < 8; attempt++) {
      const tmp = mkdtempSync(join(work, "tmp-"));
      const child = spawn(process.execPath, [KBTS, "manifests", "--breaking-since", "v0.1.0"], {
        cwd: project,
        stdio: "ignore",
        env: { ...GIT_ENV, TMPDIR: tmp },
      });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      let done = false;
      void exited.then(() => {
        done = true;
      });
      let sent = false;
      while (!done && !sent) {
        const dirs = readdirSync(tmp).filter((d) => d.startsWith("kbts-breaking-"));
        if (dirs.some((d) => existsSync(join(tmp, d, "tree", "api")))) {
          child.kill("SIGINT");
          sent = true;
        }
        await new Promise((r) => setTimeout(r, 2));
      }
      const code = await exited;
      expect(worktrees()).toBe(1);
      expect(readdirSync(tmp)).toEqual([]);
      if (sent) {
        expect(code).toBe(130);
        return;
      }
    }
    expect.fail("the worktree was never seen while kbts ran");
  }, 120_000);
});
