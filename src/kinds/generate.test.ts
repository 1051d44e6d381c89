import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generateKinds, writeKinds } from "./generate.js";

const project = new URL("../../testdata/markers/67-full-project", import.meta.url).pathname;
const scoped = new URL("../../testdata/markers/27-resource-cluster", import.meta.url).pathname;

describe("kbts generate", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("writes one typed descriptor per root kind, next to the API package", async () => {
    const files = await generateKinds({ root: project });
    expect([...files.keys()]).toEqual(["api/v1alpha1/zz_generated.kinds.ts"]);
    const text = files.get("api/v1alpha1/zz_generated.kinds.ts") ?? "";
    expect(text).toContain('import { defineKind } from "@kbts/runtime";');
    expect(text).toContain('import type { GPUBudget } from "./gpubudget_types.js";');
    expect(text).toContain("export const GPUBudgetKind = defineKind<GPUBudget>({");
    expect(text).toContain('plural: "gpubudgets"');
    expect(text).toContain("namespaced: true");
    expect(text).not.toContain("GPUBudgetList");
  });

  it("takes plural and scope from +kubebuilder:resource", async () => {
    const files = await generateKinds({ root: scoped });
    const text = [...files.values()].join("\n");
    expect(text).toContain("namespaced: false");
  });

  it("is idempotent", async () => {
    dir = mkdtempSync(join(tmpdir(), "kbts-kinds-"));
    cpSync(join(project, "api"), join(dir, "api"), { recursive: true });
    expect(await writeKinds({ root: dir })).toEqual(["api/v1alpha1/zz_generated.kinds.ts"]);
    const first = readFileSync(join(dir, "api/v1alpha1/zz_generated.kinds.ts"), "utf8");
    expect(await writeKinds({ root: dir })).toEqual([]);
    expect(readFileSync(join(dir, "api/v1alpha1/zz_generated.kinds.ts"), "utf8")).toBe(first);
  });
});
