import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  continueGoldenSteps,
  GOLDEN_EPOCH,
  GOLDEN_PROJECTS,
  readTree,
  runGoldenSteps,
  TESTDATA,
} from "../../testdata/golden.js";
import { runAlphaGenerate } from "./alpha-generate.js";
import { runEdit } from "./edit.js";
import { runInit } from "./index.js";

const KBTS = join(import.meta.dirname, "..", "..", "bin", "kbts.js");

const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), "kbts-alpha-generate-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

// The golden projects' license headers carry the year of GOLDEN_EPOCH.
let epoch: string | undefined;
beforeAll(() => {
  epoch = process.env.SOURCE_DATE_EPOCH;
  process.env.SOURCE_DATE_EPOCH = GOLDEN_EPOCH;
});
afterAll(() => {
  if (epoch === undefined) delete process.env.SOURCE_DATE_EPOCH;
  else process.env.SOURCE_DATE_EPOCH = epoch;
});

describe("kbts alpha generate", () => {
  // These golden projects are nothing but kbts commands: re-scaffolding them from PROJECT must give them back.
  for (const name of ["project-v1", "project-gpubudget"]) {
    it(`re-scaffolds testdata/${name} from its PROJECT file, file for file`, async () => {
      const out = join(temp(), "out");
      await runAlphaGenerate(TESTDATA, { inputDir: name, outputDir: out });
      expect(readTree(out)).toEqual(readTree(join(TESTDATA, name)));
    }, 120_000);
  }

  it("re-scaffolds the multi-version project as its kbts commands did, leaving the user's code out", async () => {
    const name = "project-multiversion";
    const commands = (GOLDEN_PROJECTS[name] ?? []).filter(
      (s) => Array.isArray(s) && s[0] !== "manifests" && s[0] !== "generate",
    );
    const expected = join(temp(), "expected");
    await runGoldenSteps(commands, expected);
    const out = join(temp(), "out");
    await runAlphaGenerate(TESTDATA, { inputDir: name, outputDir: out });
    expect(readTree(out)).toEqual(readTree(expected));
  }, 120_000);

  // Namespaced, with a built-in kind's and an external CRD's controller (its CRD file comes along),
  // and the Helm chart rebuilt from the kustomize output the golden project keeps in dist/. What
  // alpha generate leaves to the user, make manifests, gives back the generated RBAC and CRD.
  it("re-scaffolds testdata/project-platform, which after make manifests generate is file for file the golden", async () => {
    const name = "project-platform";
    const out = join(temp(), "out");
    const result = await runAlphaGenerate(TESTDATA, { inputDir: name, outputDir: out });
    expect(result.next).toContain("make manifests generate");
    await continueGoldenSteps([["manifests"], ["generate"]], out);
    expect(readTree(out)).toEqual(readTree(join(TESTDATA, name)));
  }, 120_000);

  it("keeps a project's own license header (init --license-file)", async () => {
    const dir = temp();
    const header = "/*\nCopyright YEAR Harbor Inc. All rights reserved.\n*/\n";
    writeFileSync(join(dir, "LICENSE-HEADER"), header);
    await execa(
      "node",
      [
        KBTS,
        "init",
        "--domain=example.com",
        "--license-file=LICENSE-HEADER",
        "--runtime=registry",
        "--skip-install",
      ],
      {
        cwd: join(dir),
      },
    );
    expect(readFileSync(join(dir, "cmd/main.ts"), "utf8")).toMatch(
      /^\/\*\nCopyright 2026 Harbor Inc\. All rights reserved\.\n\*\//,
    );
    const out = join(dir, "out");
    await runAlphaGenerate(dir, { outputDir: out });
    expect(readFileSync(join(out, "hack/boilerplate.ts.txt"), "utf8")).toBe(header);
    expect(readFileSync(join(out, "cmd/main.ts"), "utf8")).toBe(
      readFileSync(join(dir, "cmd/main.ts"), "utf8"),
    );
    const missing = await execa("node", [KBTS, "init", "--license-file=nope.txt"], {
      cwd: join(dir, "out"),
      reject: false,
    });
    expect(missing.exitCode).not.toBe(0);
    expect(missing.stderr).toContain("cannot read the license file nope.txt");
  }, 60_000);

  it("rebuilds the Helm chart (helm/v2-alpha) from the project's kustomize output", async () => {
    const project = join(temp(), "p");
    mkdirSync(project);
    await runInit(project, {
      domain: "example.com",
      repo: "example.com/multiversion",
      projectName: "multiversion",
      runtime: "registry",
    });
    mkdirSync(join(project, "dist"));
    writeFileSync(
      join(project, "dist/install.yaml"),
      readFileSync(join(TESTDATA, "helm/install.yaml"), "utf8"),
    );
    await runEdit(project, { plugins: ["helm/v2-alpha"] });
    const out = join(temp(), "out");
    await runAlphaGenerate(project, { outputDir: out });
    expect(readTree(out)).toEqual(readTree(project));
    expect(readTree(out).has("dist/chart/values.yaml")).toBe(true);
  }, 60_000);

  it("refuses to replace the project in place without --force, writing nothing", async () => {
    const dir = temp();
    const project = join(dir, "p");
    await runGoldenSteps(GOLDEN_PROJECTS["project-gpubudget"]?.slice(0, 1) ?? [], project);
    const before = readTree(project);
    await expect(runAlphaGenerate(project, {})).rejects.toThrow(
      /replaces every file of the project but \.git/,
    );
    expect(readTree(project)).toEqual(before);
  });

  it("refuses a non-empty --output-dir without --force, and a directory without PROJECT", async () => {
    const dir = temp();
    mkdirSync(join(dir, "out"));
    writeFileSync(join(dir, "out", "mine.txt"), "keep me\n");
    await expect(
      runAlphaGenerate(TESTDATA, { inputDir: "project-gpubudget", outputDir: join(dir, "out") }),
    ).rejects.toThrow(/out is not empty/);
    expect(readTree(join(dir, "out"))).toEqual(new Map([["mine.txt", "keep me\n"]]));
    await expect(runAlphaGenerate(dir, { outputDir: join(dir, "new") })).rejects.toThrow(/PROJECT not found/);
  });

  it("with --force re-scaffolds in place, keeping .git and dropping what the scaffold does not write", async () => {
    const project = join(temp(), "p");
    await runGoldenSteps(GOLDEN_PROJECTS["project-v1"] ?? [], project);
    mkdirSync(join(project, ".git"));
    writeFileSync(join(project, ".git", "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(project, "notes.md"), "mine\n");
    const result = await runAlphaGenerate(project, { force: true });
    expect(result.next).toContain("Your code was replaced");
    const after = readTree(project);
    expect(after.get(".git/HEAD")).toBe("ref: refs/heads/main\n");
    expect(after.has("notes.md")).toBe(false);
    after.delete(".git/HEAD");
    expect(after).toEqual(readTree(join(TESTDATA, "project-v1")));
  }, 120_000);
});
