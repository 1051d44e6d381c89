import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { readTree } from "../../testdata/golden.js";
import { runCreateApi, runCreateWebhook, runEdit, runInit } from "../commands/index.js";

// Plugins edit what another plugin wrote only at insertion points, through a parser or by a carried
// template change: never anchored on the formatter's text or a file's indentation. So each plugin's
// edits apply to a project whose files were reformatted (TypeScript and YAML re-indented with 4 spaces),
// and a second run of every plugin changes nothing.

const HELM_FIXTURE = readFileSync(join(import.meta.dirname, "../../testdata/helm/install.yaml"), "utf8");

/** TypeScript re-indented with 4 spaces: every leading run of spaces doubled. */
function reindent(text: string): string {
  return text
    .split("\n")
    .map((l) => l.replace(/^ +/, (m) => m + m))
    .join("\n");
}

/** YAML printed with 4-space indentation and indented sequences (the scaffold uses 2, and mixes). */
function reindentYaml(text: string): string {
  return parseAllDocuments(text)
    .map((d) => d.toString({ indent: 4, indentSeq: true, lineWidth: 0 }))
    .join("");
}

/**
 * The YAML files plugins edit that init writes, and cmd/main.ts and the e2e suite, reformatted unlike
 * the scaffold (create webhook writes config/webhook and config/certrotation: the second run edits them).
 */
function reformat(dir: string): void {
  for (const f of [
    "config/manager/manager.yaml",
    "config/manager/kustomization.yaml",
    "config/rbac/kustomization.yaml",
    "config/network-policy/kustomization.yaml",
    "config/prometheus/kustomization.yaml",
    "config/prometheus/monitor.yaml",
  ]) {
    writeFileSync(join(dir, f), reindentYaml(readFileSync(join(dir, f), "utf8")));
  }
  for (const f of ["cmd/main.ts", "test/e2e/e2e.test.ts"]) {
    writeFileSync(join(dir, f), reindent(readFileSync(join(dir, f), "utf8")));
  }
}

/** Every plugin that edits another's files, in the order a user might run them (each may run again). */
async function runPlugins(dir: string): Promise<void> {
  const force = true;
  await runCreateApi(dir, {
    group: "capacity",
    version: "v1alpha1",
    kind: "GPUBudget",
    plugins: ["gpu-budget/v1-alpha"],
    force,
  });
  await runCreateApi(dir, {
    group: "capacity",
    version: "v1alpha1",
    kind: "Memcached",
    plugins: ["deploy-image/v1-alpha"],
    image: "memcached:1.6.26-alpine3.19",
    manifests: false,
    force,
  });
  const captain = { group: "capacity", kind: "Captain" };
  await runCreateApi(dir, { ...captain, version: "v1", resource: true, controller: true, force });
  await runCreateApi(dir, { ...captain, version: "v2", resource: true, controller: false, force });
  await runCreateWebhook(dir, {
    ...captain,
    version: "v1",
    defaulting: true,
    programmaticValidation: true,
    force,
  });
  await runCreateWebhook(dir, { ...captain, version: "v1", conversion: true, spoke: ["v2"], force });
  await runEdit(dir, { plugins: ["grafana/v1-alpha"] });
  await runEdit(dir, { plugins: ["autoupdate/v1-alpha"] });
  await runEdit(dir, { plugins: ["helm/v2-alpha"] });
}

describe("plugins' edits of a reformatted project", { timeout: 240_000 }, () => {
  let dir = "";
  let first = new Map<string, string>();
  let second = new Map<string, string>();
  const read = (path: string) => readFileSync(join(dir, path), "utf8");
  const yaml = (path: string) => parseAllDocuments(read(path)).map((d) => d.toJS());

  beforeAll(async () => {
    dir = join(mkdtempSync(join(tmpdir(), "kbts-plugin-edits-")), "fleet");
    mkdirSync(dir);
    await runInit(dir, { domain: "example.com", repo: "example.com/fleet", runtime: "registry" });
    mkdirSync(join(dir, "dist"));
    writeFileSync(join(dir, "dist/install.yaml"), HELM_FIXTURE);
    reformat(dir);
    await runPlugins(dir);
    first = readTree(dir);
    await runPlugins(dir);
    second = readTree(dir);
  }, 240_000);
  afterAll(() => rmSync(join(dir, ".."), { recursive: true, force: true }));

  it("changes nothing when every plugin runs a second time", () => {
    expect([...second.keys()]).toEqual([...first.keys()]);
    for (const [path, text] of first) expect({ path, text: second.get(path) }).toEqual({ path, text });
  });

  it("applies the edits to the reformatted YAML, keeping its indentation", () => {
    const [, deployment] = yaml("config/manager/manager.yaml");
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBe(20);
    expect(deployment.spec.template.spec.containers[0].env).toContainEqual({
      name: "MEMCACHED_IMAGE",
      value: "memcached:1.6.26-alpine3.19",
    });
    // The file keeps its 4-space indentation: what was added sits at its siblings' column.
    expect(read("config/manager/manager.yaml")).toMatch(/^ {4}replicas: 2$/m);
    expect(read("config/prometheus/monitor.yaml")).toMatch(
      /^ {8}- path: \/metrics\n {10}honorLabels: true$/m,
    );
    expect(yaml("config/manager/kustomization.yaml")[0].resources).toContain("pod_disruption_budget.yaml");
    expect(yaml("config/rbac/kustomization.yaml")[0].resources).toContain("write_guards.yaml");
    expect(yaml("config/prometheus/kustomization.yaml")[0].resources).toContain("gpubudget_rules.yaml");
    expect(yaml("config/webhook/kustomization.yaml")[0].patches).toContainEqual({
      path: "pod_namespace_selector_patch.yaml",
    });
    expect(yaml("config/network-policy/kustomization.yaml")[0].resources).toContain(
      "allow-webhook-traffic.yaml",
    );
    const role = yaml("config/certrotation/cert_rotation_role.yaml").find((d) => d?.kind === "ClusterRole");
    expect(role.rules).toContainEqual(
      expect.objectContaining({ resourceNames: ["captains.capacity.example.com"], verbs: ["get", "update"] }),
    );
  });

  it("wires the plugins' code at cmd/main.ts' insertion points, in place of the base plugin's", () => {
    const main = read("cmd/main.ts");
    expect(main).toContain('"max-concurrent-reconciles": { type: "string", default: "1" }');
    expect(main).toContain('cache: { transforms: { "v1/Pod": slimPod } }');
    expect(main).toContain("await setupGPUBudgetController(mgr, {");
    expect(main).toContain("await setupPodWebhookWithManager(mgr, {");
    expect(main).not.toContain("new GPUBudgetReconciler(");
    expect(main).not.toContain("    setupPodWebhookWithManager(mgr);");
    expect(main).toContain("new MemcachedReconciler(");
    expect(main).toContain(".withConversion(...captainSpokes)");
  });

  it("adds each plugin's Makefile targets once, at the Makefile's insertion point", () => {
    const makefile = read("Makefile");
    for (const target of ["check-rules:", "migrate-storage:", "helm-deploy:"]) {
      expect(makefile.split(`\n${target}`).length).toBe(2);
    }
    expect(makefile.indexOf("check-rules:")).toBeLessThan(
      makefile.indexOf("# +kubebuilder:scaffold:makefile-targets"),
    );
    expect(read(".gitignore")).toContain("dist/*\n!dist/chart/\n");
  });
});

/** The text of each `.edit(` call in `source` (up to its balanced closing parenthesis). */
function editCalls(source: string): string[] {
  const calls: string[] = [];
  for (let at = source.indexOf(".edit("); at >= 0; at = source.indexOf(".edit(", at + 1)) {
    let depth = 0;
    let end = at + ".edit".length;
    for (; end < source.length; end++) {
      if (source[end] === "(") depth++;
      else if (source[end] === ")" && --depth === 0) break;
    }
    calls.push(source.slice(at, end + 1));
  }
  return calls;
}

describe("plugins' sources", () => {
  const root = join(import.meta.dirname);
  const sources = (readdirSync(root, { recursive: true }) as string[])
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => ({ file: f, text: readFileSync(join(root, f), "utf8") }));

  it("edit other plugins' files through parsers and markers, never by a regex or a text position", () => {
    const calls = sources.flatMap(({ file, text }) => editCalls(text).map((call) => ({ file, call })));
    expect(calls.length).toBeGreaterThan(5);
    const surgery = calls.filter(({ call }) =>
      /\.replace(All)?\(|new RegExp|\.(last)?[iI]ndexOf\(/.test(call),
    );
    expect(surgery).toEqual([]);
  });

  it("keep none of the text-anchored helpers", () => {
    const helpers =
      /\b(insertAfterLine|replaceLineContaining|replaceBlock|addYamlListEntry|addMakeTarget|addNamedImport)\b/;
    expect(sources.filter(({ text }) => helpers.test(text)).map(({ file }) => file)).toEqual([]);
  });
});
