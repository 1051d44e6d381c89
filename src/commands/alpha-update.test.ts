import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KbtsError } from "../errors.js";
import { formatProject } from "../project/config.js";
import { runAlphaUpdate, type Scaffolder } from "./alpha-update.js";

/**
 * The merge machinery of alpha update, with two fake kbts "releases" (a scaffolder writing their
 * templates): what lands on the output branch, what stops, and what is left in the repository. The
 * real releases through npm are e2e/alpha-update.test.ts'.
 */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kbts-alpha-update-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const GIT_ENV = {
  GIT_AUTHOR_NAME: "Dev",
  GIT_AUTHOR_EMAIL: "dev@example.com",
  GIT_COMMITTER_NAME: "Dev",
  GIT_COMMITTER_EMAIL: "dev@example.com",
};
const git = (...args: string[]) =>
  execFileSync("git", args, { cwd: dir, encoding: "utf8", env: { ...process.env, ...GIT_ENV } }).trim();
const read = (path: string) => readFileSync(join(dir, path), "utf8");
const write = (root: string, path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};

/** The templates of kbts 1.0.0 and 2.0.0: 2.0.0 adds a Makefile target and retitles the README. */
const TEMPLATES: Record<string, Record<string, string>> = {
  "1.0.0": {
    Makefile: "build:\n\tnpx tsc\n",
    "README.md": "# fleet\nAn operator.\n",
    "cmd/main.ts": "export function main() {\n  return 1;\n}\n",
    ".github/workflows/test.yml": "name: Tests\n",
  },
  "2.0.0": {
    Makefile: "build:\n\tnpx tsc\n\nlint:\n\tnpx biome check\n",
    "README.md": "# fleet operator\nAn operator.\n",
    "cmd/main.ts": "export function main() {\n  return 1;\n}\n",
    ".github/workflows/test.yml": "name: Tests (2.0.0)\n",
  },
};
const project = (version: string) =>
  formatProject({ version: "3", cliVersion: version, domain: "example.com", projectName: "fleet" });
const fake: Scaffolder = async (version, input, output) => {
  expect(readFileSync(join(input, "PROJECT"), "utf8")).toContain("projectName: fleet");
  for (const [path, text] of Object.entries(TEMPLATES[version] ?? {})) write(output, path, text);
  write(output, "PROJECT", project(version));
};

/** A project made with 1.0.0 on main, then edited by its user. */
function userProject(readme = "# fleet\nAn operator.\n"): void {
  git("init", "-q", "-b", "main");
  for (const [path, text] of Object.entries(TEMPLATES["1.0.0"] ?? {})) write(dir, path, text);
  write(dir, "PROJECT", project("1.0.0"));
  git("add", "-A");
  git("commit", "-q", "-m", "scaffold");
  write(dir, "cmd/main.ts", "export function main() {\n  return 42; // the user's\n}\n");
  write(dir, "internal/ships.ts", "export const ships = 3;\n");
  write(dir, "README.md", readme);
  git("add", "-A");
  git("commit", "-q", "-m", "my code");
}

const update = (flags: Parameters<typeof runAlphaUpdate>[1] = {}) =>
  runAlphaUpdate(dir, { toVersion: "2.0.0", ...flags }, fake);

describe("kbts alpha update", () => {
  it("squashes the three-way merge into one commit on the output branch: the user's code and the new templates", async () => {
    userProject();
    const before = git("rev-parse", "main");
    const result = await update();
    expect(result.outputBranch).toBe("kbts-update-from-1.0.0-to-2.0.0");
    expect(result.conflicts).toEqual([]);
    expect(git("branch", "--show-current")).toBe("kbts-update-from-1.0.0-to-2.0.0");
    expect(git("rev-parse", "HEAD^")).toBe(before);
    expect(git("log", "-1", "--format=%s")).toBe("chore(kbts): update scaffold 1.0.0 -> 2.0.0");
    expect(read("cmd/main.ts")).toContain("return 42; // the user's");
    expect(read("internal/ships.ts")).toBe("export const ships = 3;\n");
    expect(read("Makefile")).toBe(TEMPLATES["2.0.0"]?.Makefile);
    expect(read("README.md")).toBe("# fleet operator\nAn operator.\n");
    expect(read("PROJECT")).toContain("cliVersion: 2.0.0");
    expect(result.written.sort()).toEqual([".github/workflows/test.yml", "Makefile", "PROJECT", "README.md"]);
    // Nothing of the update is left behind: no temporary refs, a clean tree, main as it was.
    expect(git("for-each-ref", "refs/kbts-update")).toBe("");
    expect(git("status", "--porcelain")).toBe("");
    expect(git("rev-parse", "main")).toBe(before);
  });

  it("stops on a conflict without --force, naming the file, with the merge in progress on the output branch", async () => {
    userProject("# Fleet, by its user\nAn operator.\n");
    const main = git("rev-parse", "main");
    const err = await update().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KbtsError);
    expect((err as KbtsError).format()).toMatch(/stopped on 1 conflict[\s\S]*\n {2}README\.md\n/);
    expect((err as KbtsError).fix).toContain("--force");
    expect(git("branch", "--show-current")).toBe("kbts-update-from-1.0.0-to-2.0.0");
    expect(git("diff", "--name-only", "--diff-filter=U")).toBe("README.md");
    expect(read("README.md")).toContain("<<<<<<<");
    expect(git("rev-parse", "main")).toBe(main);
    expect(git("for-each-ref", "refs/kbts-update")).toBe("");
  });

  it("commits a conflict with its markers under --force, and the commit message names the file", async () => {
    userProject("# Fleet, by its user\nAn operator.\n");
    const result = await update({ force: true });
    expect(result.conflicts).toEqual(["README.md"]);
    const message = git("log", "-1", "--format=%B");
    expect(message).toContain(
      "chore(kbts): (:warning: manual conflict resolution required) update scaffold 1.0.0 -> 2.0.0",
    );
    expect(message).toContain("- README.md");
    expect(read("README.md")).toMatch(
      /<<<<<<< .*\n# fleet operator\n=======\n# Fleet, by its user\n>>>>>>> /,
    );
    expect(read("Makefile")).toBe(TEMPLATES["2.0.0"]?.Makefile);
    expect(git("status", "--porcelain")).toBe("");
  });

  it("keeps the history with --show-commits and restores paths from the base branch in squash mode", async () => {
    userProject();
    await update({ showCommits: true, outputBranch: "history", mergeMessage: "update kbts" });
    expect(git("log", "-1", "--format=%P").split(" ")).toHaveLength(2);
    expect(git("log", "-1", "--format=%s")).toBe("update kbts");
    expect(git("merge-base", "--is-ancestor", "main", "HEAD")).toBe("");
    git("checkout", "-q", "main");
    await update({ restorePath: [".github/workflows"] });
    expect(read(".github/workflows/test.yml")).toBe("name: Tests\n");
    expect(read("Makefile")).toBe(TEMPLATES["2.0.0"]?.Makefile);
  });

  it("updates a project in a folder of the repository, leaving the rest of the repository as it is", async () => {
    git("init", "-q", "-b", "main");
    const op = join(dir, "operator");
    for (const [path, text] of Object.entries(TEMPLATES["1.0.0"] ?? {})) write(op, path, text);
    write(op, "PROJECT", project("1.0.0"));
    write(op, "internal/ships.ts", "export const ships = 3;\n");
    write(dir, "docs/index.md", "# The fleet\n");
    git("add", "-A");
    git("commit", "-q", "-m", "monorepo");
    const result = await runAlphaUpdate(op, { toVersion: "2.0.0" }, fake);
    expect(result.conflicts).toEqual([]);
    expect(result.written.sort()).toEqual([
      "operator/.github/workflows/test.yml",
      "operator/Makefile",
      "operator/PROJECT",
      "operator/README.md",
    ]);
    expect(read("operator/Makefile")).toBe(TEMPLATES["2.0.0"]?.Makefile);
    expect(read("operator/internal/ships.ts")).toBe("export const ships = 3;\n");
    expect(read("docs/index.md")).toBe("# The fleet\n");
  });

  it("takes the current branch as the project's when the repository has no main", async () => {
    userProject();
    git("branch", "-m", "main", "master");
    const master = git("rev-parse", "master");
    const result = await update();
    expect(result.next).toContain("your project at master merged");
    expect(git("rev-parse", "HEAD^")).toBe(master);
    expect(read("Makefile")).toBe(TEMPLATES["2.0.0"]?.Makefile);
  });

  it("takes --squash, the default spelled out, and refuses it beside --show-commits", () => {
    const kbts = join(import.meta.dirname, "..", "..", "bin", "kbts.js");
    const help = execFileSync("node", [kbts, "alpha", "update", "--help"], { encoding: "utf8" });
    expect(help).toContain("--squash");
    let refusal = "";
    try {
      execFileSync("node", [kbts, "alpha", "update", "--squash", "--show-commits"], {
        cwd: tmpdir(),
        encoding: "utf8",
        stdio: "pipe",
      });
    } catch (err) {
      refusal = String((err as { stderr?: string }).stderr);
    }
    expect(refusal).toContain(
      "--squash, --show-commits: --squash and --show-commits ask for opposite results",
    );
  });

  it("refuses what it cannot update, before writing anything", async () => {
    await expect(update()).rejects.toThrow(/is not in a git repository/);
    userProject();
    write(dir, "README.md", "uncommitted\n");
    await expect(update()).rejects.toThrow(/uncommitted changes:\n M README\.md/);
    git("commit", "-q", "-am", "more");
    await expect(update({ fromBranch: "trunk" })).rejects.toThrow(/branch trunk does not exist/);

    await expect(update({ toVersion: "two" })).rejects.toThrow(/"two" is not a kbts version/);
    await expect(update({ showCommits: true, restorePath: ["docs"] })).rejects.toThrow(
      /--restore-path is not supported with --show-commits/,
    );
    await expect(update({ gitConfig: ["rerere.enabled"] })).rejects.toThrow(/is not key=value/);
    git("branch", "kbts-update-from-1.0.0-to-2.0.0");
    await expect(update()).rejects.toThrow(/branch kbts-update-from-1.0.0-to-2.0.0 exists/);
    expect(git("branch", "--show-current")).toBe("main");
    expect(git("for-each-ref", "refs/kbts-update")).toBe("");
    const same = await update({ toVersion: "v1.0.0" });
    expect(same.next).toContain("already on kbts 1.0.0: nothing to update");
  });
});
