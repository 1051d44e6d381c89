/**
 * testdata/project-platform, the third golden project (a namespaced operator with its own CRD, a
 * controller for apps/v1 Deployment, one for cert-manager's Certificate from a CRD file, and the Helm
 * chart), passes its own `make test`: make manifests, generate and fmt, the type check, and each
 * controller's test against a local control plane. What those make targets write is what the golden
 * holds, so `make test` changes none of its files, and `make lint` passes.
 * Its dependencies are linked to this checkout and installed with an npm cache of its own.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTree, TESTDATA } from "../src/scaffold/golden.js";
import { installGoldenProject, runMake } from "./support/golden-project.js";

const NAME = "project-platform";
const work = mkdtempSync(join(tmpdir(), "kbts-e2e-golden3-"));
const project = join(work, "platform");
const make = (target: string) => runMake(project, target);

/** The project's files, but the two the link to this checkout and npm install rewrite. */
function sources(dir: string): Map<string, string> {
  const tree = readTree(dir);
  tree.delete("package.json");
  tree.delete("package-lock.json");
  return tree;
}

beforeAll(async () => {
  const install = await installGoldenProject(NAME, project);
  expect(install.exitCode, install.all).toBe(0);
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe.sequential(`testdata/${NAME}`, () => {
  it("passes its own make test: every controller's test on a local control plane", async () => {
    const test = await make("test");
    expect(test.exitCode, test.all).toBe(0);
    for (const file of ["tenant", "deployment", "certificate"]) {
      expect(test.all).toMatch(
        new RegExp(`internal/controller/${file}_controller\\.test\\.ts \\(\\d+ tests?\\)`),
      );
    }
    expect(test.all).not.toMatch(/\d+ (failed|skipped)/);
  });

  it("make test's manifests, generate and fmt rewrite none of the golden's files", () => {
    const after = sources(project);
    const golden = sources(join(TESTDATA, NAME));
    expect([...after.keys()]).toEqual([...golden.keys()]);
    for (const [path, content] of after) expect(content, path).toBe(golden.get(path));
  });

  it("make lint passes (biome, and kbts lint's unawaited-promise check)", async () => {
    const lint = await make("lint");
    expect(lint.exitCode, lint.all).toBe(0);
  });
});
