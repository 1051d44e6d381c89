import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Environment } from "@marcbachmann/cel-js";
import { afterEach, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { generateManifests } from "../manifests/generate.js";
import { writeManifests } from "../manifests/write.js";

const golden = new URL("../../testdata/project-gpubudget", import.meta.url).pathname;
const LABEL = "capacity.lab.example.com/gpubudget-enforcement";

interface Policy {
  kind: string;
  metadata: { name: string };
  spec: {
    policyName?: string;
    matchConditions?: { expression: string }[];
    matchConstraints?: { resourceRules: { resources: string[]; operations: string[] }[] };
    variables?: { name: string; expression: string }[];
    validations?: { expression: string; message?: string; messageExpression?: string }[];
  };
}

const parseGuards = (text: string | undefined) =>
  parseAllDocuments(text ?? "").map((d) => d.toJS() as Policy);

/** Runs a policy's variables and validations as the API server does; the first refusal's message. */
function admit(policy: Policy, oldObject: unknown, object: unknown): string | undefined {
  const env = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false });
  const variables: Record<string, unknown> = {};
  for (const v of policy.spec.variables ?? [])
    variables[v.name] = env.evaluate(v.expression, { object, oldObject, variables });
  for (const c of policy.spec.validations ?? []) {
    if (env.evaluate(c.expression, { object, oldObject, variables }) !== true)
      return c.messageExpression
        ? (env.evaluate(c.messageExpression, { object, oldObject, variables }) as string)
        : c.message;
  }
  return undefined;
}

const ns = (labels: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  apiVersion: "v1",
  kind: "Namespace",
  metadata: { name: "team-a", resourceVersion: "1", labels, ...extra },
  spec: { finalizers: ["kubernetes"] },
  status: { phase: "Active" },
});

// Each test compiles the GPUBudget project's TypeScript (seconds on a busy machine).
describe("+kbts:guard → config/rbac/write_guards.yaml", { timeout: 60_000 }, () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  /** The golden GPUBudget project with `files` changed. */
  const copy = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), "kbts-guards-"));
    dirs.push(dir);
    cpSync(golden, dir, { recursive: true, filter: (p) => !p.includes("node_modules") });
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), text);
    }
    return dir;
  };
  const errorOf = (p: Promise<unknown>) =>
    p.then(
      () => "generated",
      (e: { format?: () => string; message: string }) => e.format?.() ?? e.message,
    );

  it("guards the GPUBudget operator's namespaces: its label only, for its ServiceAccount only", async () => {
    const { files } = await generateManifests({ root: golden });
    const [policy, binding] = parseGuards(files.get("config/rbac/write_guards.yaml")) as [Policy, Policy];
    expect(policy.kind).toBe("ValidatingAdmissionPolicy");
    expect(binding.spec.policyName).toBe(policy.metadata.name);
    // kustomize's namespace and namePrefix make the ServiceAccount's name.
    expect(policy.spec.matchConditions?.[0]?.expression).toBe(
      "request.userInfo.username == 'system:serviceaccount:gpubudget-system:gpubudget-controller-manager'",
    );
    expect(policy.spec.matchConstraints?.resourceRules).toEqual([
      expect.objectContaining({ resources: ["namespaces"], operations: ["UPDATE"] }),
    ]);

    const old = ns({ "kubernetes.io/metadata.name": "team-a" });
    expect(admit(policy, old, ns({ ...old.metadata.labels, [LABEL]: "Deny" }))).toBeUndefined();
    expect(admit(policy, ns({ ...old.metadata.labels, [LABEL]: "Deny" }), old)).toBeUndefined();
    // Server-managed metadata changes on every write: never compared.
    expect(
      admit(policy, old, { ...old, metadata: { ...old.metadata, resourceVersion: "2" } }),
    ).toBeUndefined();
    const psa = admit(
      policy,
      old,
      ns({ ...old.metadata.labels, "pod-security.kubernetes.io/enforce": "privileged" }),
    );
    expect(psa).toContain("this request changes metadata.labels['pod-security.kubernetes.io/enforce']");
    expect(psa).toContain(
      `// +kbts:guard:groups="",resources=namespaces,verbs=patch,fields=metadata.labels['pod-security.kubernetes.io/enforce']`,
    );
    expect(admit(policy, old, ns({}))).toContain("changes metadata.labels['kubernetes.io/metadata.name']");
    expect(admit(policy, old, ns(old.metadata.labels, { annotations: { a: "b" } }))).toContain(
      "changes metadata.annotations['a']",
    );
    expect(admit(policy, old, { ...old, spec: { finalizers: [] } })).toContain("this request changes spec;");
  });

  it("allows a nested field of the project's own kind and compares its siblings", async () => {
    const dir = copy({
      "internal/controller/guard.ts":
        "// +kubebuilder:rbac:groups=capacity.lab.example.com,resources=gpubudgets,verbs=update\n// +kbts:guard:groups=capacity.lab.example.com,resources=gpubudgets,verbs=update,fields=spec.maxGPUs;metadata.finalizers\nexport {};\n",
    });
    const { files } = await generateManifests({ root: dir });
    const policy = parseGuards(files.get("config/rbac/write_guards.yaml")).find(
      (p) => p.metadata.name === "manager-guard-gpubudgets.capacity.lab.example.com",
    ) as Policy;
    const budget = (spec: Record<string, unknown>) => ({ metadata: { name: "b" }, spec });
    const old = budget({ maxGPUs: 4, enforcement: "Report" });
    expect(admit(policy, old, budget({ maxGPUs: 8, enforcement: "Report" }))).toBeUndefined();
    expect(admit(policy, old, { ...old, metadata: { name: "b", finalizers: ["x"] } })).toBeUndefined();
    expect(admit(policy, old, budget({ maxGPUs: 4, enforcement: "Deny" }))).toContain(
      "this request changes spec.enforcement;",
    );
  });

  it("refuses guards that name no grant, an unknown resource or field, or create", async () => {
    const at = (marker: string) =>
      errorOf(
        generateManifests({ root: copy({ "internal/controller/guard.ts": `${marker}\nexport {};\n` }) }),
      );
    expect(await at(`// +kbts:guard:groups="",resources=configmaps,verbs=update,fields=data`)).toMatch(
      /internal\/controller\/guard\.ts:1:\d+.*update on configmaps is guarded but no \+kubebuilder:rbac marker grants it/s,
    );
    expect(await at(`// +kbts:guard:groups="",resources=widgets,verbs=patch,fields=spec`)).toMatch(
      /guard\.ts:1:\d+.*unknown resource widgets/s,
    );
    expect(
      await at(
        `// +kbts:guard:groups=capacity.lab.example.com,resources=gpubudgets,verbs=patch,fields=spec.nope`,
      ),
    ).toMatch(/guard\.ts:1:\d+.*gpubudgets\.capacity\.lab\.example\.com has no field spec\.nope/s);
    expect(
      await at(`// +kbts:guard:groups="",resources=namespaces,verbs=patch,fields=spec.finalizers`),
    ).toMatch(/kbts does not know the fields of spec of namespaces/);
    expect(await at(`// +kbts:guard:groups="",resources=namespaces,verbs=create,fields=spec`)).toMatch(
      /guard\.ts:1:\d+.*create and delete cannot be narrowed/s,
    );
  });

  it("--check finds write_guards.yaml stale, and a kustomization without it is warned of", async () => {
    const dir = copy({});
    const stale = await writeManifests({ root: dir, check: true });
    expect(stale.changed).toContain("config/rbac/write_guards.yaml");
    await writeManifests({ root: dir });
    expect((await writeManifests({ root: dir, check: true })).changed).toEqual([]);
    const kustomization = join(dir, "config/rbac/kustomization.yaml");
    writeFileSync(kustomization, readFileSync(kustomization, "utf8").replace("- write_guards.yaml\n", ""));
    const { warnings } = await generateManifests({ root: dir });
    expect(warnings).toContainEqual({
      where: "config/rbac/kustomization.yaml",
      message: expect.stringContaining(
        "make deploy would not install the write guards; add - write_guards.yaml",
      ),
    });
  });

  it("empties write_guards.yaml when the last guard marker goes, and --check sees it stale till then", async () => {
    const dir = copy({});
    await writeManifests({ root: dir });
    expect(parseGuards(readFileSync(join(dir, "config/rbac/write_guards.yaml"), "utf8"))).not.toEqual([]);
    const controller = join(dir, "internal/controller/gpubudget_controller.ts");
    writeFileSync(
      controller,
      readFileSync(controller, "utf8")
        .split("\n")
        .filter((line) => !line.includes("+kbts:guard"))
        .join("\n"),
    );
    expect((await writeManifests({ root: dir, check: true })).changed).toContain(
      "config/rbac/write_guards.yaml",
    );
    await writeManifests({ root: dir });
    const left = readFileSync(join(dir, "config/rbac/write_guards.yaml"), "utf8");
    expect(parseGuards(left)).toEqual([]);
    expect(left).toContain("No +kbts:guard markers");
  });

  it("needs the project's ServiceAccount to name whom it guards", async () => {
    const dir = copy({});
    rmSync(join(dir, "config/rbac/service_account.yaml"));
    expect(await errorOf(generateManifests({ root: dir }))).toMatch(
      /gpubudget_controller\.ts:\d+:\d+.*cannot tell the manager's ServiceAccount/s,
    );
  });
});
