import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Renderer, templateSet } from "../../scaffold/template.js";
import { readYamlDocuments } from "../../yaml/read.js";
import { TEMPLATE_SET } from "./index.js";

// Renders every template of the plugin with the GPUBudget tutorial's names and checks each output is
// well-formed for its kind of file. The rendered operator's behaviour is tested by its own tests
// (run by e2e/gpubudget.test.ts inside a scaffolded project).
const data = {
  group: "capacity",
  version: "v1alpha1",
  kind: "GPUBudget",
  kindLower: "gpubudget",
  kindVar: "gpuBudget",
  plural: "gpubudgets",
  domain: "lab.example.com",
  qualifiedGroup: "capacity.lab.example.com",
  apiVersion: "capacity.lab.example.com/v1alpha1",
  namespaced: true,
  core: false,
  multigroup: false,
  groupDir: "",
  projectName: "gpubudget",
  apiImportFromController: "../../api/v1alpha1",
  configFromController: "../../config",
};

const rendered = new Map<string, string>();
let dir = "";

beforeAll(() => {
  const renderer = new Renderer();
  // Under the repository's tmp/ (git-ignored) so the rendered modules resolve this checkout's packages.
  const tmp = fileURLToPath(new URL("../../../tmp/", import.meta.url));
  mkdirSync(tmp, { recursive: true });
  dir = mkdtempSync(join(tmp, "gpubudget-templates-"));
  for (const file of templateSet(TEMPLATE_SET, "overwrite")) {
    const path = renderer.outputPath(file, data);
    const body = renderer.render(file.template, data);
    rendered.set(path, body);
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), body);
  }
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Transpiling every rendered file takes seconds on a loaded machine.
describe("gpu-budget/v1-alpha templates", { timeout: 60_000 }, () => {
  it("write the operator's files at Kubebuilder's paths", () => {
    expect([...rendered.keys()]).toEqual(
      expect.arrayContaining([
        "api/v1alpha1/gpubudget_types.ts",
        "internal/controller/gpubudget_controller.ts",
        "internal/controller/gpubudget_controller.test.ts",
        "internal/webhook/v1/pod_webhook.ts",
        "internal/gpu/podgpus.ts",
        "config/grafana/gpubudget-dashboard.json",
        "config/prometheus/gpubudget_rules.yaml",
        "config/webhook/pod_namespace_selector_patch.yaml",
        "config/samples/capacity_v1alpha1_gpubudget.yaml",
        "README.md",
      ]),
    );
  });

  it("render TypeScript without syntax errors and without leftover template braces", () => {
    for (const [path, body] of rendered) {
      if (!path.endsWith(".ts")) continue;
      const out = ts.transpileModule(body, {
        fileName: path,
        reportDiagnostics: true,
        compilerOptions: { module: ts.ModuleKind.NodeNext },
      });
      expect(
        out.diagnostics?.map((d) => `${path}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`),
      ).toEqual([]);
      expect(body, path).not.toMatch(/\{\{/);
    }
  });

  it("render YAML and JSON that parse", () => {
    for (const [path, body] of rendered) {
      if (/\.ya?ml$/.test(path)) expect(() => readYamlDocuments(body, path), path).not.toThrow();
      if (path.endsWith(".json")) expect(() => JSON.parse(body), path).not.toThrow();
    }
  });

  it("keep Prometheus and Grafana template syntax ({{ $labels.x }}, {{result}}) intact", () => {
    expect(rendered.get("config/prometheus/gpubudget_rules.yaml")).toContain("{{ $labels.namespace }}");
    const dashboard = JSON.parse(rendered.get("config/grafana/gpubudget-dashboard.json") ?? "{}");
    const legends = dashboard.panels.flatMap((p: { targets?: { legendFormat?: string }[] }) =>
      (p.targets ?? []).map((t) => t.legendFormat),
    );
    expect(legends).toContain("{{result}}");
  });

  it("count GPUs by the scheduler's rule in the rendered module", async () => {
    const { podGPUs } = await import(join(dir, "internal/gpu/podgpus.ts"));
    const pod = {
      spec: {
        initContainers: [{ name: "i", resources: { limits: { "nvidia.com/gpu": "4" } } }],
        containers: [{ name: "c", resources: { requests: { "nvidia.com/gpu": "1" } } }],
      },
    };
    expect(podGPUs(pod, "nvidia.com/gpu")).toBe(4);
  });
});

describe("the README's ways past a Deny budget", () => {
  // Each row names the tests or alerts that prove it; a renamed or deleted test must not leave a row
  // pointing at nothing.
  const repo = fileURLToPath(new URL("../../..", import.meta.url));
  const readme = readFileSync(join(repo, "templates", TEMPLATE_SET, "README.md.hbs"), "utf8");
  const section = readme.split("## Ways past a Deny budget")[1]?.split("\n## ")[0] ?? "";
  const rows = section.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| way past"));
  const sources = [
    ...readdirSync(join(repo, "e2e"))
      .filter((f) => f.endsWith(".test.ts"))
      .map((f) => join(repo, "e2e", f)),
    ...listFiles(join(repo, "templates", TEMPLATE_SET)).filter((f) => f.endsWith(".hbs")),
  ].map((f) => readFileSync(f, "utf8"));
  const titles = new Set(
    sources.flatMap((text) => [...text.matchAll(/\bit\(\s*"([^"]+)"/g)].map((m) => m[1])),
  );
  const alerts = new Set(sources.flatMap((text) => [...text.matchAll(/- alert: (\S+)/g)].map((m) => m[1])));

  it("has a row for each way the issue lists", () => {
    for (const way of [
      "label",
      "webhook is down",
      "Init containers",
      "resize",
      "Relabelling",
      "controllers",
      "Static pods",
    ]) {
      expect(
        rows.some((row) => row.includes(way)),
        way,
      ).toBe(true);
    }
  });

  it("proves every row with a test or an alert that exists", () => {
    for (const row of rows) {
      const proof = row.split(" | ").at(-1) ?? "";
      const names = [...proof.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
      expect(names.length, row).toBeGreaterThan(0);
      for (const name of names)
        expect(titles.has(name) || alerts.has(name), `${name} (in: ${row.slice(0, 60)}...)`).toBe(true);
    }
  });
});

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)],
  );
}
