/**
 * The README's two commands, as a new user runs them: a fresh `git clone` of this repository (plus the
 * working tree's uncommitted changes, so a developer's `make test` tests what they see), empty npm, Go
 * module and kbts caches, then `make demo` and `make test`, each on its first run (make test starts
 * once the demo has built the checkout: DEMO_STARTED). Only the envtest store (etcd, kube-apiserver,
 * kubectl: minutes to rebuild) and Go's build cache (below) are shared.
 *
 * `make test` runs this file alone (KBTS_FRESH_CLONE_RUN=1); every other test runs once, inside the
 * clone, as its `make test` (KBTS_IN_FRESH_CLONE=1 makes that `make test-all`). So CI proves the first
 * run on every run without running the suite twice. Anywhere else vitest.config.ts does not collect
 * this file, so it never counts as skipped: the clone's summary must name every skip, and each must be
 * one of ALLOWED_SKIPS.
 */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { sharedDir } from "../testdata/shared.js";
import { readResults, SUITES, SUMMARY_LINE, summarize, type VitestResults } from "./tools/test-summary.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));
if (process.env.KBTS_IN_FRESH_CLONE === "1") {
  throw new Error("e2e/fresh-clone.test.ts never runs inside the fresh clone (it would clone again)");
}

/**
 * The tests the clone's run may skip, by file and full name, and why. Any other skip fails the run, so
 * a new skip cannot hide in the summary's count.
 */
const ALLOWED_SKIPS: Record<string, string> = {
  "src/plugins/atomic.test.ts > manifests a read-only config/rbac is reported as EROFS with its path, and nothing changes":
    "needs mount --bind (root with CAP_SYS_ADMIN); the EISDIR cases cover the rollback everywhere",
};

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-fresh-clone-"));
const clone = join(work, "kbts");
/**
 * Go's build cache is the user's, not an empty one. It only holds compiled packages, keyed by the hash
 * of their inputs, so what the clone builds and whether it builds are the same with it or without it:
 * every module is still downloaded into the empty GOMODCACHE below, and every tool is still built
 * (its binary is missing from the empty kbts cache). An empty one made the clone recompile helm and
 * controller-gen from nothing: ~165 CPU-s of make test's ~1,850, against ~30 with the user's cache on
 * a machine that had built them (the Go tools build with -trimpath, so their cache keys do not name
 * the module cache's folder).
 * CI starts with an empty one anyway.
 */
function usersGoBuildCache(): string {
  try {
    return (
      execFileSync("go", ["env", "GOCACHE"], { encoding: "utf8" }).trim() || join(work, "cache/go-build")
    );
  } catch {
    return join(work, "cache/go-build"); // no go: the clone's make says so
  }
}
const caches = {
  npm_config_cache: join(work, "cache/npm"),
  XDG_CACHE_HOME: join(work, "cache/xdg"),
  GOCACHE: usersGoBuildCache(),
  GOMODCACHE: join(work, "cache/go-mod"),
};
// The user's environment with empty caches, and nothing that points at this checkout's tools.
const {
  KUBEBUILDER_ASSETS: _a,
  KBTS_FRESH_CLONE_RUN: _r,
  VITEST: _v,
  VITEST_POOL_ID: _p,
  VITEST_WORKER_ID: _w,
  NODE_ENV: _n,
  ...userEnv
} = process.env;
const env = { ...userEnv, ...caches, KBTS_IN_FRESH_CLONE: "1" };

/**
 * Runs `make target` in the clone, streaming its output here and to `<work>/<target>.log`; `onOutput`
 * sees each chunk as it comes.
 */
async function make(target: string, onOutput?: (chunk: string) => void) {
  const log = join(work, `${target}.log`);
  const out = createWriteStream(log);
  const started = Date.now();
  const child = execa("make", [target], {
    cwd: clone,
    env,
    extendEnv: false,
    reject: false,
    stdin: "ignore",
    all: true,
  });
  child.all?.pipe(out);
  // CI shows progress as it happens: a cold run takes many minutes.
  child.all?.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    onOutput?.(chunk.toString());
  });
  const result = await child;
  await new Promise((resolve) => out.end(resolve));
  const seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(
    `fresh clone: make ${target} exited ${result.exitCode} in ${seconds}s (log: ${log})\n`,
  );
  const text = readFileSync(log, "utf8");
  return { exitCode: result.exitCode, seconds, text, tail: text.split("\n").slice(-80).join("\n") };
}

/** Copies the working tree's uncommitted changes (tracked and untracked, not ignored) into the clone. */
async function carryUncommittedChanges() {
  const diff = await execa("git", ["diff", "HEAD", "--binary"], { cwd: REPO });
  if (diff.stdout.trim() !== "") {
    await execa("git", ["apply", "--whitespace=nowarn"], { cwd: clone, input: `${diff.stdout}\n` });
  }
  const untracked = await execa("git", ["ls-files", "--others", "--exclude-standard", "-z"], { cwd: REPO });
  for (const file of untracked.stdout.split("\0").filter(Boolean)) {
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    copyFileSync(join(REPO, file), join(clone, file));
  }
}

/**
 * A clone's vitest report with each file named by its path in this checkout, as the file is the same:
 * make test's list of the slowest files then reads `e2e/gpubudget.test.ts`, not a path into the
 * deleted clone (`../../kbts-e2e-fresh-clone-…/kbts/e2e/gpubudget.test.ts`).
 */
function asThisCheckouts(report: string): string {
  const results = JSON.parse(readFileSync(report, "utf8")) as VitestResults;
  for (const file of results.testResults) file.name = join(REPO, relative(clone, file.name));
  return JSON.stringify(results);
}

/**
 * The line the demo prints first, once `make demo` has installed and built the checkout. make test
 * starts then, beside the rest of the demo: about 40 s that mostly wait on the registry (the scaffolded
 * project's npm install) and on a control plane, and left most of a core idle before make test began.
 * Both still run on a fresh clone with empty caches, each for the first time; make test finds the
 * checkout installed and built, as it would after the demo.
 */
const DEMO_STARTED = "kbts demo on node";
/** The clone's `make test`, started while the demo runs; the last test awaits it. */
let makeTest: ReturnType<typeof make> | undefined;

afterAll(() => {
  if (process.env.KEEP_E2E !== "true") rmSync(work, { recursive: true, force: true });
});

describe("a fresh clone with empty caches: the README's two commands", () => {
  it("clones this repository and carries over uncommitted changes", async () => {
    for (const dir of Object.values(caches)) mkdirSync(dir, { recursive: true });
    const cloned = await execa("git", ["clone", "--quiet", REPO, clone], { reject: false, all: true });
    expect(cloned.exitCode, cloned.all).toBe(0);
    await carryUncommittedChanges();
    // The clone sits where CI puts one, beside shared/ (the oracles tests read in place, never copied).
    const shared = sharedDir(REPO);
    expect(shared, `shared/ (with oracles/) beside ${REPO} or the checkout it was cloned from`).toBeDefined();
    symlinkSync(shared ?? "", join(work, "shared"));
  });

  it("make demo passes on its first run and tells the GPUBudget story", async () => {
    const demo = await make("demo", (chunk) => {
      if (makeTest === undefined && chunk.includes(DEMO_STARTED)) makeTest = make("test");
    });
    expect(demo.exitCode, demo.tail).toBe(0);
    expect(demo.text).toContain("npm install (registry, empty npm cache)");
    expect(demo.text).toMatch(/=== Done in \d+s/);
  }, 3_600_000);

  it(
    "then make test passes on its first run",
    async () => {
      const test = await (makeTest ?? make("test"));
      // The clone's results are this run's: make test's summary line adds them up.
      const results = join(REPO, ".test-results/fresh-clone");
      rmSync(results, { recursive: true, force: true });
      mkdirSync(results, { recursive: true });
      for (const name of SUITES) {
        const report = join(clone, ".test-results", `${name}.json`);
        // A suite that did not run has no results; the exit code below says why.
        if (existsSync(report)) writeFileSync(join(results, `${name}.json`), asThisCheckouts(report));
      }
      // The docs e2e's screenshots (the home page, a reference page) are this run's output too.
      const shots = join(clone, ".test-results/docs");
      if (existsSync(shots)) cpSync(shots, join(REPO, ".test-results/docs"), { recursive: true });
      // A failed chaos e2e leaves its replicas' logs there (e2e/chaos/scenario.ts): the only evidence.
      const chaos = join(clone, ".test-results/chaos");
      if (existsSync(chaos)) cpSync(chaos, join(REPO, ".test-results/chaos"), { recursive: true });
      expect(test.exitCode, test.tail).toBe(0);
      const suites = readResults(results, SUITES);
      const summary = summarize(suites, REPO);
      // Every skip is named and allowed, and the closing line counts exactly those.
      const skipped = summary.skipped.map((t) => `${t.file} > ${t.name}`);
      expect(skipped.filter((t) => !(t in ALLOWED_SKIPS))).toEqual([]);
      expect(SUMMARY_LINE.exec(test.text)?.slice(1).map(Number)).toEqual([summary.passed, 0, skipped.length]);
      // The clone's own e2e run did not collect this file (it would clone again).
      const e2e = suites.find((s) => s.suite === "e2e")?.results.testResults ?? [];
      expect(e2e.length).toBeGreaterThan(0);
      expect(e2e.map((f) => f.name).filter((n) => n.endsWith("e2e/fresh-clone.test.ts"))).toEqual([]);
    },
    3 * 3_600_000,
  );
});
