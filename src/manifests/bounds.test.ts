import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generateKinds } from "../kinds/generate.js";
import { MAX_TYPE_DEPTH } from "../loading/bounds.js";
import { generateManifests } from "./index.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function project(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), "kbts-bounds-"));
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), content);
  }
  return dir;
}

const GV = "// +groupName=deep.kbts.test\nexport const GroupVersion = {} as const;\n";
const ROOT = (spec: string) => `
// +kubebuilder:object:root=true
export interface Deep {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: ${spec};
}
`;
const IMPORT = 'import type { ObjectMeta } from "@kbts/runtime";\n';

describe("--paths names directories inside the project", () => {
  it.each([
    ["", /"" is empty; it would scan the whole file system/],
    ["  ", /is empty/],
    ["/", /"\/" is outside the project/],
    ["/etc", /is outside the project/],
    ["../elsewhere", /leaves the project/],
    ["api/../../**/*.ts", /leaves the project/],
    ["missing", /"missing" matched no TypeScript files/],
  ])("manifests and generate refuse --paths %j at once", async (path, message) => {
    const root = project({ "api/v1/groupversion_info.ts": GV });
    const started = performance.now();
    await expect(generateManifests({ root, paths: [path] })).rejects.toMatchObject({
      where: "--paths",
      message: expect.stringMatching(message),
    });
    await expect(generateKinds({ root, paths: [path] })).rejects.toMatchObject({ where: "--paths" });
    // "At once": nothing was globbed or parsed (a whole-file-system glob takes minutes).
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("accepts an absolute path inside the project", async () => {
    const root = project({
      "api/v1/groupversion_info.ts": GV,
      "api/v1/deep_types.ts": IMPORT + ROOT("{ a: string }"),
    });
    const { files } = await generateManifests({ root, paths: [join(root, "api")] });
    expect([...files.keys()]).toEqual(["config/crd/bases/deep.kbts.test_deeps.yaml"]);
  });
});

describe("deep types fail with their location and the limit, never a stack overflow", () => {
  it("a chain of 1,000 named types", async () => {
    const chain = Array.from({ length: 1000 }, (_, i) => `export interface T${i} {\n  a?: T${i + 1};\n}`);
    const root = project({
      "api/v1/groupversion_info.ts": GV,
      "api/v1/deep_types.ts": `${IMPORT}${chain.join("\n")}\nexport interface T1000 { v: string }\n${ROOT("T0")}`,
    });
    const err = await generateManifests({ root }).catch((e: unknown) => e);
    expect(String((err as Error).message)).not.toMatch(/call stack/);
    expect(err).toMatchObject({
      where: expect.stringMatching(/^api\/v1\/deep_types\.ts:\d+:\d+$/),
      message: expect.stringContaining(`nest deeper than ${MAX_TYPE_DEPTH} levels`),
    });
  });

  it("an inline object type nested 1,000 deep", async () => {
    let inline = "{ v: string }";
    for (let i = 0; i < 1000; i++) inline = `{ a?: ${inline} }`;
    const root = project({
      "api/v1/groupversion_info.ts": GV,
      "api/v1/deep_types.ts": IMPORT + ROOT(inline),
    });
    await expect(generateManifests({ root })).rejects.toMatchObject({
      where: `api/v1/deep_types.ts:8:${9 + 6 * (MAX_TYPE_DEPTH - 1)}`,
      message: `types and expressions nest deeper than ${MAX_TYPE_DEPTH} levels`,
    });
  });

  it("nesting up to the limit still generates", async () => {
    let inline = "{ v: string }";
    for (let i = 0; i < 20; i++) inline = `{ a?: ${inline} }`;
    const text = "const s = `a ${`b ${(1)}`} (`;\n";
    const root = project({
      "api/v1/groupversion_info.ts": GV,
      "api/v1/deep_types.ts": IMPORT + text + ROOT(inline),
    });
    const { files } = await generateManifests({ root });
    expect(files.size).toBe(1);
  });
});
