import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generateManifests, ManifestErrors, VERSION_ANNOTATION, writeManifests } from "./index.js";

const corpus = (name: string) => new URL(`../../testdata/markers/${name}`, import.meta.url).pathname;

/** A scratch project with the given API file. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "kbts-manifests-"));
  writeFileSync(join(dir, "package.json"), "{}");
  for (const [p, content] of Object.entries(files)) {
    const abs = join(dir, p);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
  return dir;
}

const GV = "// +groupName=t.kbts.test\nexport const GroupVersion = {} as const;\n";
const KIND = (spec: string) => `import type { ObjectMeta } from "@kbts/runtime";
export interface ThingSpec {
${spec}
}
// +kubebuilder:object:root=true
export interface Thing {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: ThingSpec;
}
`;

describe("generateManifests / writeManifests", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const scratch = (files: Record<string, string>) => {
    const d = project(files);
    dirs.push(d);
    return d;
  };

  it("is deterministic and carries the kbts version annotation", async () => {
    const a = await generateManifests({ root: corpus("67-full-project") });
    const b = await generateManifests({ root: corpus("67-full-project") });
    expect([...a.files.keys()]).toEqual([
      "config/crd/bases/capacity.lab.example.com_gpubudgets.yaml",
      "config/rbac/role.yaml",
      "config/webhook/manifests.yaml",
    ]);
    expect([...a.files.values()]).toEqual([...b.files.values()]);
    expect(a.files.get("config/crd/bases/capacity.lab.example.com_gpubudgets.yaml")).toContain(
      `    ${VERSION_ANNOTATION}: `,
    );
  });

  it("--strict turns marker warnings into errors and writes nothing", async () => {
    const root = scratch({
      "api/v1/groupversion_info.ts": GV,
      "api/v1/thing_types.ts": KIND("  // +kubebuilder:validation:Minimun=1\n  size?: number;"),
    });
    const loose = await generateManifests({ root, allowDangerousTypes: true });
    expect(loose.warnings.length).toBeGreaterThan(0);
    const err = await writeManifests({ root, allowDangerousTypes: true, strict: true }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ManifestErrors);
    expect((err as ManifestErrors).format()).toMatch(/thing_types\.ts:\d+.*Minimun.*--strict/s);
    expect(existsSync(join(root, "config"))).toBe(false);
  });

  it("reports every error together, each at its location, and writes nothing", async () => {
    const root = scratch({
      "api/v1/gv.ts": GV,
      "api/v1/types.ts": KIND(
        "  // +kubebuilder:validation:MaxLength=ten\n  name?: string;\n  ratio?: number;\n  when?: Date;",
      ),
    });
    let err: unknown;
    try {
      await writeManifests({ root });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ManifestErrors);
    const text = (err as ManifestErrors).format();
    expect((err as ManifestErrors).errors).toHaveLength(3);
    expect(text).toContain("api/v1/types.ts:3:6: invalid marker +kubebuilder:validation:MaxLength");
    expect(text).toContain("api/v1/types.ts:5:3: ThingSpec.ratio is a float");
    expect(text).toContain("--allow-dangerous-types");
    expect(text).toContain("api/v1/types.ts:6:3: ThingSpec.when is a Date");
    expect(existsSync(join(root, "config"))).toBe(false);
  });

  it("--check passes right after a run and fails with a diff after a types change", async () => {
    const root = scratch({
      "api/v1/gv.ts": GV,
      "api/v1/types.ts": KIND("  // name of the thing.\n  name?: string;"),
    });
    const first = await writeManifests({ root });
    expect(first.changed).toEqual(["config/crd/bases/t.kbts.test_things.yaml"]);
    const check = await writeManifests({ root, check: true });
    expect(check.changed).toEqual([]);
    writeFileSync(join(root, "api/v1/types.ts"), KIND("  // name of the thing, renamed.\n  name?: string;"));
    const stale = await writeManifests({ root, check: true });
    expect(stale.changed).toEqual(["config/crd/bases/t.kbts.test_things.yaml"]);
    expect(stale.diffs[0]).toContain("-                description: name of the thing.");
    expect(stale.diffs[0]).toContain("+                description: name of the thing, renamed.");
    // --check wrote nothing
    expect(readFileSync(join(root, "config/crd/bases/t.kbts.test_things.yaml"), "utf8")).toContain(
      "name of the thing.",
    );
  });

  it("returns unknown markers as warnings with the closest name", async () => {
    const root = scratch({
      "api/v1/gv.ts": GV,
      "api/v1/types.ts": KIND("  // +kubebuilder:validation:MaxLenght=5\n  name?: string;"),
    });
    const r = await generateManifests({ root });
    expect(r.warnings.map((w) => `${w.where}: ${w.message}`)).toEqual([
      "api/v1/types.ts:3:6: unknown marker +kubebuilder:validation:MaxLenght; ignored (did you mean +kubebuilder:validation:MaxLength?)",
    ]);
  });
});

describe("checks beyond controller-gen", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("parses CEL messageExpressions too", async () => {
    const root = project({
      "api/v1/gv.ts": GV,
      "api/v1/types.ts": KIND(
        '  // +kubebuilder:validation:XValidation:rule="self.size() > 0",messageExpression="\'bad: \' +"\n  name?: string;',
      ),
    });
    dirs.push(root);
    await expect(generateManifests({ root })).rejects.toThrow(/messageExpression/);
  });

  it("rejects a listMapKey field that is neither required nor defaulted, as the API server would", async () => {
    const root = project({
      "api/v1/gv.ts": GV,
      "api/v1/types.ts": `export interface Port { name?: string; port?: string }\n${KIND(
        "  // +listType=map\n  // +listMapKey=name\n  ports?: Port[];",
      )}`,
    });
    dirs.push(root);
    await expect(generateManifests({ root })).rejects.toThrow(/"name" must be required or have a default/);
  });
});

describe("type mapping details", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("+k8s:enum sorts a union's values, as controller-gen sorts the enum's consts", async () => {
    const root = project({
      "api/v1/gv.ts": GV,
      "api/v1/types.ts": `// +k8s:enum\nexport type Phase = "Running" | "Failed" | "Pending";\n${KIND("  phase?: Phase;")}`,
    });
    dirs.push(root);
    const { files } = await generateManifests({ root });
    const crd = files.get("config/crd/bases/t.kbts.test_things.yaml") ?? "";
    expect(crd).toContain(
      "enum:\n                - Failed\n                - Pending\n                - Running\n",
    );
  });
});

describe("the objects beside the files", () => {
  it("are each file's documents as its YAML reads back, key order included", async () => {
    const { parseAllDocuments } = await import("yaml");
    const root = new URL("../../testdata/project-v1", import.meta.url).pathname;
    const result = await generateManifests({ root });
    const docs = (file: string) => parseAllDocuments(result.files.get(file) ?? "").map((d) => d.toJS());
    expect(result.crds.size).toBeGreaterThan(0);
    for (const [file, crd] of result.crds) expect(JSON.stringify([crd])).toBe(JSON.stringify(docs(file)));
    expect(JSON.stringify(result.roles)).toBe(JSON.stringify(docs("config/rbac/role.yaml")));
    expect(result.webhooks.length).toBeGreaterThan(0);
    expect(JSON.stringify(result.webhooks)).toBe(JSON.stringify(docs("config/webhook/manifests.yaml")));
  });
});
