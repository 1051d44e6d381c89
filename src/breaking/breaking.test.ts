import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KbtsError } from "../errors.js";
import { generateManifests } from "../manifests/generate.js";
import { findBreakingChanges, formatReport } from "./command.js";

const corpus = new URL("../../testdata/breaking/", import.meta.url).pathname;
const cases = readdirSync(corpus, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith("_"))
  .map((d) => d.name)
  .sort();

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-C", cwd, ...args], {
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
      GIT_CONFIG_GLOBAL: "/dev/null",
    },
  });

/** A repository whose commit tagged `base` holds `before/`, with `after/` in its working tree. */
function repoFor(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `kbts-breaking-${name}-`));
  dirs.push(dir);
  const overlay = (side: string) => {
    rmSync(join(dir, "api"), { recursive: true, force: true });
    cpSync(join(corpus, "_common"), dir, { recursive: true });
    cpSync(join(corpus, name, side), dir, { recursive: true });
    // A version directory only the other side has is not part of this side's project.
    for (const v of readdirSync(join(dir, "api"))) {
      if (!existsSync(join(corpus, name, side, "api", v))) rmSync(join(dir, "api", v), { recursive: true });
    }
  };
  writeFileSync(join(dir, "package.json"), "{}\n");
  overlay("before");
  git(dir, "init", "--quiet", "--initial-branch=main");
  git(dir, "add", ".");
  git(dir, "commit", "--quiet", "-m", "base");
  git(dir, "tag", "base");
  overlay("after");
  return dir;
}

const worktrees = (dir: string) => git(dir, "worktree", "list", "--porcelain").match(/^worktree /gm)?.length;

describe("kbts manifests --breaking-since (testdata/breaking)", () => {
  it.each(cases)("%s", async (name) => {
    const dir = repoFor(name);
    const result = await findBreakingChanges({ root: dir, since: "base" });
    const { text } = formatReport(result, "base");
    const commit = git(dir, "rev-parse", "base").trim().slice(0, 12);
    const expected = readFileSync(join(corpus, name, "expected.txt"), "utf8");
    expect(text.replaceAll(commit, "<commit>")).toBe(expected);
    // The temporary worktree is gone, and git no longer lists it.
    expect(worktrees(dir)).toBe(1);
  });

  it("covers every kind of break it reports, and the changes that must not be flagged", () => {
    const breaks = cases.map((c) => readFileSync(join(corpus, c, "expected.txt"), "utf8"));
    expect(breaks.filter((t) => t.includes("breaking: ")).length).toBeGreaterThanOrEqual(17);
    for (const c of ["add-optional-field", "widen-enum", "loosen-bound", "add-version"]) {
      expect(readFileSync(join(corpus, c, "expected.txt"), "utf8")).toMatch(/^no breaking changes/m);
    }
  });

  it("says so when the directory is not in a git repository", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbts-breaking-nogit-"));
    dirs.push(dir);
    cpSync(join(corpus, "_common"), dir, { recursive: true });
    cpSync(join(corpus, "removed-field", "after"), dir, { recursive: true });
    rmSync(join(dir, "api", "v2"), { recursive: true });
    const err = await findBreakingChanges({ root: dir, since: "main" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KbtsError);
    expect((err as KbtsError).format()).toContain(`--breaking-since: ${dir} is not in a git repository`);
  });

  it("says so when the ref does not exist, and leaves no worktree behind", async () => {
    const dir = repoFor("removed-field");
    const err = await findBreakingChanges({ root: dir, since: "v9.9.9" }).catch((e: unknown) => e);
    expect((err as KbtsError).format()).toContain('--breaking-since: git ref "v9.9.9" does not exist in');
    expect(worktrees(dir)).toBe(1);
  });

  it("removes the worktree when the base cannot be generated", async () => {
    const dir = repoFor("removed-field");
    git(dir, "checkout", "--quiet", "-b", "broken", "base");
    writeFileSync(join(dir, "api", "v1", "widget_types.ts"), "export interface Broken {\n");
    git(dir, "commit", "--quiet", "-am", "broken");
    git(dir, "checkout", "--quiet", "main");
    cpSync(join(corpus, "removed-field", "after"), dir, { recursive: true });
    const err = await findBreakingChanges({ root: dir, since: "broken" }).catch((e: unknown) => e);
    expect((err as KbtsError).format()).toMatch(
      /could not generate the CRDs at broken \(\w+\):\n {2}api\/v1/,
    );
    expect(worktrees(dir)).toBe(1);
  });

  it("refuses an accept marker without a reason, at the marker", async () => {
    const dir = repoFor("accepted");
    const file = join(dir, "api", "v1", "widget_types.ts");
    writeFileSync(file, readFileSync(file, "utf8").replace(/accept="[^"]*"/, 'accept=""'));
    const err = await generateManifests({ root: dir }).catch((e: unknown) => e);
    expect((err as KbtsError).format()).toMatch(
      /api\/v1\/widget_types\.ts:\d+:\d+: invalid marker \+kbts:breaking:accept: needs a reason/,
    );
  });
});
