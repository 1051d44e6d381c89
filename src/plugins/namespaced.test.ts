import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { typecheckProject } from "../../testdata/typecheck.js";
import { runCreateApi, runInit } from "../commands/index.js";

// Under the repository's node_modules, so the project resolves @kbts/runtime, typescript and vitest
// from this checkout for its type check, as the golden projects do.
const REPO = fileURLToPath(new URL("../..", import.meta.url));
const dir = mkdtempSync(join(REPO, "node_modules", ".kbts-namespaced-"));
const read = (p: string) => readFileSync(join(dir, p), "utf8");
let next = "";

beforeAll(async () => {
  const result = await runInit(dir, {
    domain: "example.com",
    repo: "example.com/harbor",
    projectName: "harbor",
    runtime: "registry",
    namespaced: true,
  });
  next = result.next;
  await runCreateApi(dir, { group: "ship", version: "v1", kind: "Frigate" });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("kbts init --namespaced", () => {
  it("records namespaced: true in PROJECT", () => {
    expect(read("PROJECT")).toContain("namespaced: true\n");
  });

  it("binds a Role, not a ClusterRole, to the manager", () => {
    expect(parse(read("config/rbac/role.yaml")).kind).toBe("Role");
    const binding = parse(read("config/rbac/role_binding.yaml"));
    expect(binding.kind).toBe("RoleBinding");
    expect(binding.roleRef).toEqual({
      apiGroup: "rbac.authorization.k8s.io",
      kind: "Role",
      name: "manager-role",
    });
  });

  it("makes the kind's admin, editor and viewer roles Roles, as Kubebuilder's namespaced layout does", () => {
    for (const role of ["admin", "editor", "viewer"]) {
      expect(parse(read(`config/rbac/frigate_${role}_role.yaml`)).kind).toBe("Role");
    }
  });

  it("refuses the GPUBudget plugin, whose operator is cluster-wide", async () => {
    await expect(
      runCreateApi(dir, {
        group: "ship",
        version: "v1alpha1",
        kind: "GPUBudget",
        plugins: ["gpu-budget/v1-alpha"],
      }),
    ).rejects.toThrow(/GPUBudget operator cannot be namespaced/);
  });

  it("sets WATCH_NAMESPACE to the pod's namespace in the manager Deployment", () => {
    const docs = read("config/manager/manager.yaml")
      .split(/^---$/m)
      .map((d) => parse(d))
      .filter((d) => d?.kind === "Deployment");
    const container = docs[0].spec.template.spec.containers[0];
    expect(container.env).toEqual([
      { name: "WATCH_NAMESPACE", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } },
    ]);
  });

  it("restricts the manager's cache to WATCH_NAMESPACE, which must be set", () => {
    const main = read("cmd/main.ts");
    expect(main).toContain("cache: { namespaces: watchNamespaces() },");
    expect(main).toContain('process.env.WATCH_NAMESPACE ?? ""');
    expect(main).toContain("WATCH_NAMESPACE must be set");
  });

  it("puts namespace=<project>-system on the controller's RBAC markers", () => {
    const controller = read("internal/controller/frigate_controller.ts");
    expect(controller).toContain(
      "// +kubebuilder:rbac:groups=ship.example.com,namespace=harbor-system,resources=frigates,verbs=get;list;watch\n",
    );
    expect(controller).toContain(
      "// +kubebuilder:rbac:groups=ship.example.com,namespace=harbor-system,resources=frigates/status,verbs=update\n",
    );
  });

  it("warns that webhooks stay cluster-scoped", () => {
    expect(next).toMatch(/^Warning: a namespaced operator's webhooks stay cluster-scoped/);
  });

  it("type-checks against @kbts/runtime as generated", () => {
    expect(typecheckProject(dir)).toBe("");
  }, 120_000);
});
