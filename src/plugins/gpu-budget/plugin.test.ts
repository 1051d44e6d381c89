import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCreateApi, runInit } from "../../commands/index.js";

function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(root, p)] = readFileSync(p, "utf8");
    }
  };
  walk(root);
  return out;
}

const createApi = (dir: string, force = false) =>
  runCreateApi(dir, {
    group: "capacity",
    version: "v1alpha1",
    kind: "GPUBudget",
    plugins: ["gpu-budget/v1-alpha"],
    force,
  });

// Each test scaffolds a whole project (formatter included): seconds on a loaded machine.
describe("create api --plugins gpu-budget/v1-alpha", { timeout: 60_000 }, () => {
  let dir = "";
  beforeEach(async () => {
    dir = join(mkdtempSync(join(tmpdir(), "kbts-gpubudget-plugin-")), "gpubudget");
    mkdirSync(dir);
    await runInit(dir, { domain: "lab.example.com", repo: "lab.example.com/gpubudget", runtime: "registry" });
    await createApi(dir);
  }, 60_000);
  afterEach(() => rmSync(join(dir, ".."), { recursive: true, force: true }));

  it("writes the operator and wires it into cmd/main.ts", () => {
    const main = readFileSync(join(dir, "cmd/main.ts"), "utf8");
    expect(main).toContain('"max-concurrent-reconciles": { type: "string", default: "1" }');
    expect(main).toContain('"prometheus-url": { type: "string", default: "" }');
    expect(main).toContain("await setupGPUBudgetController(mgr, {");
    expect(main).toContain('cache: { transforms: { "v1/Pod": slimPod } }');
    expect(main).toContain("await setupPodWebhookWithManager(mgr, {");
    expect(main).not.toContain("new GPUBudgetReconciler(");
    expect(readFileSync(join(dir, "config/webhook/kustomization.yaml"), "utf8")).toContain(
      "- path: pod_namespace_selector_patch.yaml",
    );
    expect(readFileSync(join(dir, "config/prometheus/kustomization.yaml"), "utf8")).toContain(
      "- gpubudget_rules.yaml",
    );
    expect(readFileSync(join(dir, "Makefile"), "utf8")).toMatch(/^check-rules: ##/m);
    // Custom metrics use the runtime's re-exported prom-client: @kbts/runtime stays the one runtime dependency.
    expect(Object.keys(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).dependencies)).toEqual([
      "@kbts/runtime",
    ]);
    const project = readFileSync(join(dir, "PROJECT"), "utf8");
    expect(project).toContain("gpu-budget.kbts.dev/v1-alpha");
    expect(project).toMatch(/kind: Pod\n.*\n.*\n\s+webhooks:\n\s+defaulting: true\n\s+validation: true/);
  });

  it("fails without --force the second time and leaves every file as it was", async () => {
    const before = tree(dir);
    await expect(createApi(dir)).rejects.toThrow(/already exists/);
    expect(tree(dir)).toEqual(before);
  });

  it("changes nothing when re-run with --force", async () => {
    const before = tree(dir);
    await createApi(dir, true);
    expect(tree(dir)).toEqual(before);
  });
});
