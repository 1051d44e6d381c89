/**
 * All or nothing under I/O errors: `create api`, `create webhook` and `manifests` are made to fail at
 * each of their writes in turn (a directory sits where the file's temporary copy goes, so the real
 * write fails with EISDIR), at a directory where a manifest should be, and on a read-only directory
 * (EROFS, when this machine lets the test bind-mount one). Every time the error names the file and
 * the real cause, the tree is exactly as it was, and no temporary file is left. Stale temporaries
 * from a killed run are removed by the next run.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listTree, readTree } from "../../testdata/golden.js";
import { writeManifests } from "../manifests/write.js";
import { runCreateApi, runCreateWebhook, runInit } from "./index.js";

const work = mkdtempSync(join(tmpdir(), "kbts-atomic-"));
const base = join(work, "base");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const API = { group: "cache", version: "v1alpha1", kind: "Memcached" };
const TEMP = /\.kbts-(tmp|\d+\.tmp)$/;
let n = 0;

/** A fresh copy of the base project. */
function copy(from = base): string {
  const dir = join(work, `c${++n}`);
  cpSync(from, dir, { recursive: true });
  return dir;
}

const temps = (dir: string) => listTree(dir).filter((p) => TEMP.test(p));

beforeAll(async () => {
  mkdirSync(base);
  await runInit(base, { domain: "example.com", repo: "example.com/memcached", runtime: "registry" });
}, 60_000);

describe("each write failing in turn leaves the tree as it was", () => {
  const commands = {
    "create api": (dir: string) => runCreateApi(dir, API),
    "create webhook": (dir: string) => runCreateWebhook(dir, { ...API, programmaticValidation: true }),
    manifests: (dir: string) => writeManifests({ root: dir }),
  };
  let withApi = "";
  beforeAll(async () => {
    withApi = copy();
    await runCreateApi(withApi, API);
  }, 60_000);

  it.each(Object.keys(commands))(
    "%s",
    async (name) => {
      const run = commands[name as keyof typeof commands];
      const start = name === "create api" ? base : withApi;
      const reference = copy(start);
      const result = await run(reference);
      const written = "written" in result ? result.written : result.changed;
      expect(written.length).toBeGreaterThanOrEqual(2);
      for (const path of written) {
        const dir = copy(start);
        // The temporary copy of `path` cannot be written: a directory is in its place.
        mkdirSync(join(dir, `${path}.kbts-${process.pid}.tmp`), { recursive: true });
        const before = readTree(dir);
        const err = await run(dir).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err, `a failed write of ${path}`).toMatchObject({
          where: path,
          message: expect.stringContaining(
            `nothing was changed: ${path}: is a directory, where a file is written (EISDIR)`,
          ),
        });
        expect(readTree(dir), `the tree after a failed write of ${path}`).toEqual(before);
        expect(temps(dir)).toEqual([]);
      }
    },
    300_000,
  );
});

describe("manifests", () => {
  let project = "";
  beforeAll(async () => {
    project = copy();
    await runCreateApi(project, API);
    await writeManifests({ root: project });
    // A new field and a new rbac rule, so the next run rewrites the CRD and the role.
    const types = join(project, "api/v1alpha1/memcached_types.ts");
    execFileSync("sed", [
      "-i",
      "s|^export interface MemcachedSpec {|&\\n  // +optional\\n  size?: number;|",
      types,
    ]);
    execFileSync("sed", [
      "-i",
      '1i // +kubebuilder:rbac:groups="",resources=pods,verbs=get',
      join(project, "internal/controller/memcached_controller.ts"),
    ]);
  }, 120_000);

  it("a directory where role.yaml should be: the CRD is not replaced either", async () => {
    const dir = copy(project);
    rmSync(join(dir, "config/rbac/role.yaml"));
    mkdirSync(join(dir, "config/rbac/role.yaml"));
    const before = readTree(dir);
    await expect(writeManifests({ root: dir, allowDangerousTypes: true })).rejects.toMatchObject({
      where: "config/rbac/role.yaml",
      message: expect.stringMatching(
        /config\/rbac\/role\.yaml: is a directory, where a file is written \(EISDIR\)/,
      ),
    });
    expect(readTree(dir)).toEqual(before);
    expect(temps(dir)).toEqual([]);
  });

  it("a read-only config/rbac is reported as EROFS with its path, and nothing changes", async (ctx) => {
    const dir = copy(project);
    const rbac = join(dir, "config/rbac");
    try {
      execFileSync("mount", ["--bind", rbac, rbac], { stdio: "ignore" });
    } catch {
      ctx.skip(); // needs root and mount; the EISDIR cases above cover the rollback itself
      return;
    }
    try {
      execFileSync("mount", ["-o", "remount,bind,ro", rbac, rbac], { stdio: "ignore" });
      const before = readTree(dir);
      await expect(writeManifests({ root: dir, allowDangerousTypes: true })).rejects.toMatchObject({
        where: "config/rbac/role.yaml",
        message: expect.stringMatching(/config\/rbac\/role\.yaml: read-only file system \(EROFS\)/),
      });
      expect(readTree(dir)).toEqual(before);
      expect(temps(dir)).toEqual([]);
    } finally {
      execFileSync("umount", [rbac]);
    }
  });

  it("stale temporaries of a killed run are removed by the next run", async () => {
    const dir = copy(project);
    writeFileSync(join(dir, "config/rbac/role.yaml.kbts-4242.tmp"), "half");
    writeFileSync(join(dir, "config/crd/bases/x.yaml.kbts-tmp"), "half");
    writeFileSync(join(dir, "PROJECT.kbts-17.tmp"), "half");
    await writeManifests({ root: dir, allowDangerousTypes: true });
    expect(temps(dir)).toEqual([]);
  });
});
