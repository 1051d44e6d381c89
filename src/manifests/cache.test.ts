import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { generateCached } from "./command.js";
import { writeOptions } from "./flags.js";
import { writeGenerated } from "./write.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const GV = "// +groupName=t.kbts.test\nexport const GroupVersion = {} as const;\n";
const THING = `import type { int32, ObjectMeta } from "@kbts/runtime";
import type { Shared } from "../../shared/types.js";

// Thing is a thing.
// +kubebuilder:object:root=true
export interface Thing {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: ThingSpec;
}

export interface ThingSpec {
  // size of the thing.
  // +kubebuilder:validation:Maximum=10
  size?: int32;
  shared?: Shared;
}
`;
const SHARED = "export interface Shared {\n  // name is shared.\n  name?: string;\n}\n";
const CRD = "config/crd/bases/t.kbts.test_things.yaml";

function project(): string {
  dir = mkdtempSync(join(tmpdir(), "kbts-cache-"));
  const files: Record<string, string> = {
    "api/v1/groupversion_info.ts": GV,
    "api/v1/thing_types.ts": THING,
    "shared/types.ts": SHARED,
    "tsconfig.json": '{ "extends": "./tsconfig.base.json" }\n',
    "tsconfig.base.json": '{ "compilerOptions": { "strict": true } }\n',
  };
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), content);
  }
  return dir;
}

/** One `kbts manifests` run as the CLI does it: cache lookup, generation on a miss, write. */
async function run(root: string, flags: { roleName?: string; check?: boolean } = {}) {
  const opts = writeOptions(flags, root);
  const { generated, cached } = await generateCached(opts, true);
  const written = await writeGenerated(opts, generated);
  return { cached, written, crd: readFileSync(join(root, CRD), "utf8") };
}

function edit(root: string, file: string, from: string | RegExp, to: string): void {
  const path = join(root, file);
  const before = readFileSync(path, "utf8");
  const after = before.replace(from, to);
  expect(after).not.toBe(before);
  writeFileSync(path, after);
}

describe("the input-hash cache of kbts manifests", { timeout: 60_000 }, () => {
  it("serves a second run on unchanged inputs from node_modules/.cache/kbts, with the same output", async () => {
    const root = project();
    const first = await run(root);
    expect(first.cached).toBe(false);
    expect(readdirSync(join(root, "node_modules/.cache/kbts")).some((f) => f.startsWith("manifests-"))).toBe(
      true,
    );
    const second = await run(root);
    expect(second.cached).toBe(true);
    expect(second.crd).toBe(first.crd);
    expect(second.written.changed).toEqual([]);
  });

  it.each([
    [
      "a comment",
      "api/v1/thing_types.ts",
      "size of the thing.",
      "how big the thing is.",
      "how big the thing is.",
    ],
    ["a marker", "api/v1/thing_types.ts", "Maximum=10", "Maximum=12", "maximum: 12"],
    [
      "an imported type in another file",
      "shared/types.ts",
      "name?: string;",
      "name?: string;\n  tag?: string;",
      "tag:",
    ],
    [
      "tsconfig.json",
      "tsconfig.json",
      '{ "extends"',
      '{ "compilerOptions": { "noEmit": true }, "extends"',
      undefined,
    ],
    ["a tsconfig it extends", "tsconfig.base.json", "true", "false", undefined],
  ])("editing %s invalidates it", async (_what, file, from, to, expected) => {
    const root = project();
    await run(root);
    expect((await run(root)).cached).toBe(true);
    edit(root, file, from, to);
    const after = await run(root);
    expect(after.cached).toBe(false);
    if (expected) expect(after.crd).toContain(expected);
    expect((await run(root)).cached).toBe(true);
  });

  it("a new file under --paths, or a file an import looked for, invalidates it", async () => {
    const root = project();
    await run(root);
    writeFileSync(join(root, "api/v1/other.ts"), "export const x = 1;\n");
    expect((await run(root)).cached).toBe(false);
    expect((await run(root)).cached).toBe(true);
    // "./extra.js" resolves to extra.ts once it exists (it lies outside the scanned paths).
    edit(root, "shared/types.ts", /^/, 'export type { Extra } from "./extra.js";\n');
    expect((await run(root)).cached).toBe(false);
    expect((await run(root)).cached).toBe(true);
    writeFileSync(join(root, "shared/extra.ts"), "export interface Extra { a?: string }\n");
    expect((await run(root)).cached).toBe(false);
  });

  it("different flags are a different entry", async () => {
    const root = project();
    edit(
      root,
      "api/v1/groupversion_info.ts",
      /^/,
      "// +kubebuilder:rbac:groups=t.kbts.test,resources=things,verbs=get\n",
    );
    await run(root);
    const other = await run(root, { roleName: "other-role" });
    expect(other.cached).toBe(false);
    expect(readFileSync(join(root, "config/rbac/role.yaml"), "utf8")).toContain("name: other-role");
    expect((await run(root)).cached).toBe(true);
    expect(readFileSync(join(root, "config/rbac/role.yaml"), "utf8")).toContain("name: manager-role");
  });

  it("a cached run restores outputs the user deleted or edited", async () => {
    const root = project();
    const first = await run(root);
    rmSync(join(root, CRD));
    const restored = await run(root);
    expect(restored.cached).toBe(true);
    expect(restored.written.changed).toEqual([CRD]);
    expect(restored.crd).toBe(first.crd);
    writeFileSync(join(root, CRD), "edited by hand\n");
    const again = await run(root);
    expect(again.cached).toBe(true);
    expect(again.crd).toBe(first.crd);
    // --check on a cached run still compares with the disk.
    writeFileSync(join(root, CRD), "edited by hand\n");
    const checked = await run(root, { check: true });
    expect(checked.cached).toBe(true);
    expect(checked.written.changed).toEqual([CRD]);
  });

  it.each([
    ["not JSON", "{ this is not"],
    ["JSON of another shape", '{"format":1,"files":"nope"}'],
    ["an empty file", ""],
  ])("a corrupt entry (%s) is ignored and replaced", async (_what, garbage) => {
    const root = project();
    const first = await run(root);
    const cacheDir = join(root, "node_modules/.cache/kbts");
    for (const f of readdirSync(cacheDir)) writeFileSync(join(cacheDir, f), garbage);
    const second = await run(root);
    expect(second.cached).toBe(false);
    expect(second.crd).toBe(first.crd);
    expect((await run(root)).cached).toBe(true);
  });

  it("a cached run does not load the compiler", async () => {
    const root = project();
    await run(root);
    const command = fileURLToPath(new URL("./command.ts", import.meta.url));
    const script = join(root, "probe.mts");
    writeFileSync(
      script,
      `import Module from "node:module";
import { generateCached } from ${JSON.stringify(command)};
import { writeOptions } from ${JSON.stringify(command.replace("command.ts", "flags.ts"))};
const { cached } = await generateCached(writeOptions({}, ${JSON.stringify(root)}), true);
const loaded = Object.keys((Module as unknown as { _cache: object })._cache).filter((f) => /typescript\\.js$|ts-morph/.test(f));
console.log(JSON.stringify({ cached, loaded }));
`,
    );
    const repo = fileURLToPath(new URL("../../", import.meta.url));
    const out = execFileSync(process.execPath, ["--import", "tsx", script], { cwd: repo, encoding: "utf8" });
    expect(JSON.parse(out.trim().split("\n").at(-1) ?? "{}")).toEqual({ cached: true, loaded: [] });
    expect(existsSync(join(root, "node_modules/.cache/kbts"))).toBe(true);
  });
});
