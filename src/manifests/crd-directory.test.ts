import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeManifests } from "./write.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const GV = "// +groupName=t.kbts.test\nexport const GroupVersion = {} as const;\n";
const KIND = (kind: string, resource = "") => `import type { ObjectMeta } from "@kbts/runtime";
// +kubebuilder:object:root=true
${resource}
export interface ${kind} {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: { a?: string };
}
`;

function project(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), "kbts-crddir-"));
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), content);
  }
  return dir;
}

describe("the CRD directory", () => {
  it("--check reports a CRD left over from a removed kind; a normal run warns", async () => {
    const root = project({ "api/v1/gv.ts": GV, "api/v1/a.ts": KIND("Thing"), "api/v1/b.ts": KIND("Other") });
    await writeManifests({ root });
    rmSync(join(root, "api/v1/b.ts"));
    const checked = await writeManifests({ root, check: true });
    expect(checked.changed).toEqual(["config/crd/bases/t.kbts.test_others.yaml"]);
    expect(checked.diffs.join("")).toContain("for a kind that no longer exists");
    const run = await writeManifests({ root });
    expect(run.warnings.map((w) => w.where)).toContain("config/crd/bases/t.kbts.test_others.yaml");
  });

  it("two files defining one CRD are an error naming both", async () => {
    const root = project({ "api/v1/gv.ts": GV, "api/v1/a.ts": KIND("Thing") });
    await writeManifests({ root });
    const bases = join(root, "config/crd/bases");
    copyFileSync(join(bases, "t.kbts.test_things.yaml"), join(bases, "copy.yaml"));
    const before = readFileSync(join(bases, "t.kbts.test_things.yaml"), "utf8");
    await expect(writeManifests({ root })).rejects.toMatchObject({
      where: "config/crd/bases/copy.yaml",
      message:
        "the CRD things.t.kbts.test is defined in 2 files: config/crd/bases/copy.yaml, config/crd/bases/t.kbts.test_things.yaml",
    });
    expect(readFileSync(join(bases, "t.kbts.test_things.yaml"), "utf8")).toBe(before);
  });

  it("two kinds with one plural are an error, not a CRD silently missing", async () => {
    const root = project({
      "api/v1/gv.ts": GV,
      "api/v1/a.ts": KIND("Thing"),
      "api/v1/b.ts": KIND("Other", "// +kubebuilder:resource:path=things"),
    });
    await expect(writeManifests({ root })).rejects.toMatchObject({
      message: expect.stringMatching(
        /kinds (Thing and Other|Other and Thing) both make the CRD things\.t\.kbts\.test/,
      ),
    });
  });

  it("a file there that is not valid YAML is an error at its line, and nothing is written", async () => {
    const root = project({ "api/v1/gv.ts": GV, "api/v1/a.ts": KIND("Thing") });
    await writeManifests({ root });
    const bases = join(root, "config/crd/bases");
    writeFileSync(join(bases, "hand.yaml"), "kind: CustomResourceDefinition\nkind: Twice\n");
    rmSync(join(bases, "t.kbts.test_things.yaml"));
    await expect(writeManifests({ root })).rejects.toMatchObject({
      where: "config/crd/bases/hand.yaml:2:1",
      message: expect.stringMatching(/^not valid YAML: /),
    });
    expect(existsSync(join(bases, "t.kbts.test_things.yaml"))).toBe(false);
  });
});
