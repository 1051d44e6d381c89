import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GOLDEN_PROJECTS, generateGolden, readTree, TESTDATA } from "./golden.js";
import { buildRuntime } from "./runtime-build.js";
import { typecheckProject } from "./typecheck.js";

const scratch = mkdtempSync(join(tmpdir(), "kbts-golden-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// The projects resolve @kbts/runtime to this repository's workspace package (its built dist/).
beforeAll(buildRuntime, 120_000);

describe.each(Object.keys(GOLDEN_PROJECTS))("testdata/%s", (name) => {
  it("equals a fresh generation (run `make testdata` after changing a template)", async () => {
    const fresh = join(scratch, name);
    await generateGolden(name, fresh);
    const want = readTree(join(TESTDATA, name));
    const got = readTree(fresh);
    expect([...got.keys()]).toEqual([...want.keys()]);
    for (const [path, content] of got) {
      expect(content, `testdata/${name}/${path} is stale: run make testdata`).toBe(want.get(path));
    }
  }, 60_000);

  it("passes the project's own formatter and linter (biome check)", () => {
    const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");
    const run = () =>
      execFileSync(process.execPath, [biome, "check", "--vcs-enabled=false", "."], {
        cwd: join(TESTDATA, name),
        encoding: "utf8",
        stdio: "pipe",
      });
    expect(run).not.toThrow();
  });

  it("type-checks against @kbts/runtime as generated (tsc -p tsconfig.json)", () => {
    const run = () => {
      const errors = typecheckProject(join(TESTDATA, name));
      if (errors) throw new Error(errors);
    };
    expect(run).not.toThrow();
  }, 120_000);

  it("holds the Kind descriptors `kbts generate` would write (make generate changes nothing)", async () => {
    const { generateKinds } = await import("../src/kinds/generate.js");
    const root = join(TESTDATA, name);
    const generated = await generateKinds({ root });
    const tree = readTree(root);
    const scaffolded = [...tree.keys()].filter((p) => p.endsWith("zz_generated.kinds.ts"));
    expect([...generated.keys()].sort()).toEqual(scaffolded);
    for (const [path, content] of generated) expect(tree.get(path), path).toBe(content);
  }, 120_000);
});
