import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { listDefaultSourceFiles } from "./default-sources.js";
import { findSourceFiles } from "./sources.js";

function tree(files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "kbts-default-sources-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), "export {};\n");
  }
  return dir;
}

describe("the default source files without the glob library", () => {
  it("lists what the default --paths glob matches", async () => {
    const root = tree([
      "api/v1/a_types.ts",
      "api/v1/a_types.test.ts",
      "api/v1/gen.d.ts",
      "api/v2/deep/er/b.ts",
      "api/v1/readme.md",
      "api/node_modules/x/index.ts",
      "internal/controller/c.ts",
      "internal/dist/d.ts",
      "cmd/main.ts",
      "top.ts",
    ]);
    const listed = listDefaultSourceFiles(root);
    expect(listed).toEqual(await findSourceFiles(root));
    expect(listed?.map((f) => f.slice(root.length + 1))).toEqual([
      "api/v1/a_types.ts",
      "api/v2/deep/er/b.ts",
      "internal/controller/c.ts",
    ]);
  });

  it("lists nothing when there is no api/ or internal/, as the glob", async () => {
    const root = tree(["cmd/main.ts"]);
    expect(listDefaultSourceFiles(root)).toEqual([]);
    expect(await findSourceFiles(root)).toEqual([]);
  });

  it("leaves dot names and symbolic links to the glob", () => {
    expect(listDefaultSourceFiles(tree(["api/v1/a.ts", "api/.hidden/b.ts"]))).toBeUndefined();
    const root = tree(["api/v1/a.ts", "elsewhere/b.ts"]);
    symlinkSync(join(root, "elsewhere"), join(root, "api/linked"), "dir");
    expect(listDefaultSourceFiles(root)).toBeUndefined();
  });
});
