/**
 * The README's two commands, as a new user runs them: a fresh `git clone` of this repository, empty
 * npm, Go and kbts caches, then `make demo` and `make test`, each on its first run. Only the envtest
 * store (etcd, kube-apiserver, kubectl, minutes to rebuild) is shared. The nested `make test` runs
 * this file too; there it is skipped (KBTS_IN_FRESH_CLONE=1), visibly, so it does not recurse.
 */
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const nested = process.env.KBTS_IN_FRESH_CLONE === "1";
const work = mkdtempSync(join(tmpdir(), "kbts-e2e-fresh-clone-"));
const clone = join(work, "kbts");
const caches = {
  npm_config_cache: join(work, "cache/npm"),
  XDG_CACHE_HOME: join(work, "cache/xdg"),
  GOCACHE: join(work, "cache/go-build"),
  GOMODCACHE: join(work, "cache/go-mod"),
};
// The user's environment with empty caches, and nothing that points at this checkout's tools.
const {
  KUBEBUILDER_ASSETS: _a,
  VITEST: _v,
  VITEST_POOL_ID: _p,
  VITEST_WORKER_ID: _w,
  NODE_ENV: _n,
  ...userEnv
} = process.env;
const env = { ...userEnv, ...caches, KBTS_IN_FRESH_CLONE: "1" };

/** Runs `make target` in the clone, its output to `<work>/<target>.log`; returns exit code, seconds, tail. */
async function make(target: string) {
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
  const result = await child;
  await new Promise((resolve) => out.end(resolve));
  const seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(
    `fresh clone: make ${target} exited ${result.exitCode} in ${seconds}s (log: ${log})\n`,
  );
  const text = readFileSync(log, "utf8");
  return { exitCode: result.exitCode, seconds, text, tail: text.split("\n").slice(-80).join("\n") };
}

afterAll(() => {
  if (process.env.KEEP_E2E !== "true") rmSync(work, { recursive: true, force: true });
});

describe.skipIf(nested)("a fresh clone with empty caches: the README's two commands", () => {
  it("clones this repository's committed HEAD", async () => {
    for (const dir of Object.values(caches)) mkdirSync(dir, { recursive: true });
    const cloned = await execa("git", ["clone", "--quiet", REPO, clone], { reject: false, all: true });
    expect(cloned.exitCode, cloned.all).toBe(0);
  });

  it("make demo passes on its first run and tells the GPUBudget story", async () => {
    const demo = await make("demo");
    expect(demo.exitCode, demo.tail).toBe(0);
    expect(demo.text).toContain("npm install (registry, empty npm cache)");
    expect(demo.text).toMatch(/=== Done in \d+s/);
  }, 3_600_000);

  it(
    "then make test passes on its first run",
    async () => {
      const test = await make("test");
      expect(test.exitCode, test.tail).toBe(0);
      expect(test.text).toMatch(/^tests: \d+ passed, 0 failed, \d+ skipped$/m);
      // The nested run skipped this file instead of cloning again.
      expect(test.text).toContain("inside a fresh clone's own make test");
    },
    3 * 3_600_000,
  );
});

describe.runIf(nested)("a fresh clone with empty caches: the README's two commands", () => {
  it.skip("inside a fresh clone's own make test (KBTS_IN_FRESH_CLONE=1): not cloning again", () => {});
});
