import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readTree } from "../../testdata/golden.js";
import { runEdit } from "./edit.js";
import { runCreateApi, runCreateWebhook, runInit } from "./index.js";

const KBTS = join(import.meta.dirname, "..", "..", "bin", "kbts.js");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A project with one API, its controller and a webhook, cluster-scoped or namespaced from init. */
async function project(namespaced: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "kbts-edit-ns-"));
  dirs.push(dir);
  await runInit(dir, {
    domain: "example.com",
    repo: "example.com/harbor",
    projectName: "harbor",
    runtime: "registry",
    namespaced,
  });
  await runCreateApi(dir, { group: "ship", version: "v1", kind: "Frigate" });
  await runCreateWebhook(dir, { group: "ship", version: "v1", kind: "Frigate", defaulting: true });
  return dir;
}

const read = (dir: string, p: string) => readFileSync(join(dir, p), "utf8");

describe("kbts edit --namespaced", () => {
  it("makes a cluster-scoped project what init --namespaced makes, keeping create api's code", async () => {
    const edited = await project(false);
    const born = await project(true);
    const result = await runEdit(edited, { namespaced: true });
    expect(result.written).toEqual(
      expect.arrayContaining([
        "PROJECT",
        "cmd/main.ts",
        "config/manager/manager.yaml",
        "config/rbac/role.yaml",
        "config/rbac/role_binding.yaml",
        "config/rbac/frigate_admin_role.yaml",
        "internal/controller/frigate_controller.ts",
      ]),
    );
    expect(readTree(edited)).toEqual(readTree(born));
    // The controller's wiring that create api inserted into cmd/main.ts is still there.
    expect(read(edited, "cmd/main.ts")).toContain("FrigateReconciler");
    expect(parse(read(edited, "config/rbac/role_binding.yaml")).kind).toBe("RoleBinding");
    expect(result.next).toContain("make manifests");
    expect(result.next).toContain("webhooks stay cluster-scoped");
  });

  it("carries the namespace into the RBAC markers of built-in and external kinds' controllers too", async () => {
    const crd = new URL("../../testdata/external-crds/cert-manager.io_certificates.yaml", import.meta.url);
    /** project(), plus controllers for apps/v1 Deployment and cert-manager's Certificate (from its CRD). */
    const withForeign = async (namespaced: boolean) => {
      const dir = await project(namespaced);
      mkdirSync(join(dir, "hack"), { recursive: true });
      copyFileSync(crd, join(dir, "hack/certificates.yaml"));
      const foreign = { version: "v1", resource: false, controller: true };
      await runCreateApi(dir, { ...foreign, group: "apps", kind: "Deployment" });
      await runCreateApi(dir, {
        ...foreign,
        group: "cert-manager",
        kind: "Certificate",
        externalApiPath: "hack/certificates.yaml",
        externalApiDomain: "io",
      });
      return dir;
    };
    const edited = await withForeign(false);
    const original = readTree(edited);
    const born = await withForeign(true);
    const result = await runEdit(edited, { namespaced: true });
    expect(result.written).toEqual(
      expect.arrayContaining([
        "internal/controller/deployment_controller.ts",
        "internal/controller/certificate_controller.ts",
      ]),
    );
    expect(read(edited, "internal/controller/certificate_controller.ts")).toContain(
      "// +kubebuilder:rbac:groups=cert-manager.io,namespace=harbor-system,resources=certificates,verbs=",
    );
    expect(readTree(edited)).toEqual(readTree(born));
    await runEdit(edited, { namespaced: false });
    expect(readTree(edited)).toEqual(original);
  });

  it("and --namespaced=false takes it back to the cluster-scoped project", async () => {
    const dir = await project(false);
    const original = readTree(dir);
    await runEdit(dir, { namespaced: true });
    await runEdit(dir, { namespaced: false });
    expect(readTree(dir)).toEqual(original);
  });

  it("keeps the user's own edits in the files it changes", async () => {
    const dir = await project(false);
    const manager = read(dir, "config/manager/manager.yaml").replace(
      "terminationGracePeriodSeconds: 10",
      "terminationGracePeriodSeconds: 42",
    );
    writeFileSync(join(dir, "config/manager/manager.yaml"), manager);
    const main = `${read(dir, "cmd/main.ts")}\n// my own note at the end\n`;
    writeFileSync(join(dir, "cmd/main.ts"), main);
    await runEdit(dir, { namespaced: true });
    expect(read(dir, "config/manager/manager.yaml")).toContain("terminationGracePeriodSeconds: 42");
    expect(read(dir, "config/manager/manager.yaml")).toContain("name: WATCH_NAMESPACE");
    expect(read(dir, "cmd/main.ts")).toContain("// my own note at the end");
    expect(read(dir, "cmd/main.ts")).toContain("cache: { namespaces: watchNamespaces() },");
  });

  it("refuses, writing nothing, when the user's edits overlap the change; --force overwrites config, never code", async () => {
    const dir = await project(false);
    const path = "config/manager/manager.yaml";
    writeFileSync(
      join(dir, path),
      read(dir, path).replace("- --health-probe-bind-address=:8081", "- --health-probe-bind-address=:9999"),
    );
    const mainPath = "cmd/main.ts";
    writeFileSync(
      join(dir, mainPath),
      read(dir, mainPath).replace(
        "async function main(): Promise<void> {",
        "async function main(): Promise<void> { // mine",
      ),
    );
    const before = readTree(dir);
    await expect(runEdit(dir, { namespaced: true })).rejects.toThrow(
      /overlap.*config\/manager\/manager\.yaml.*cmd\/main\.ts/,
    );
    expect(readTree(dir)).toEqual(before);

    const forced = await runEdit(dir, { namespaced: true, force: true });
    expect(read(dir, path)).toContain("name: WATCH_NAMESPACE");
    expect(read(dir, path)).not.toContain(":9999");
    expect(read(dir, mainPath)).toBe(before.get(mainPath));
    expect(forced.next).toContain("cmd/main.ts has edits where this change goes");
    expect(forced.next).toContain("+    cache: { namespaces: watchNamespaces() },");
  });

  it("says so and writes nothing when the setting is already the one asked for", async () => {
    const dir = await project(true);
    const before = readTree(dir);
    const result = await runEdit(dir, { namespaced: true });
    expect(result.written).toEqual([]);
    expect(result.next).toContain("PROJECT already has namespaced: true; nothing changed.");
    expect(readTree(dir)).toEqual(before);
  });

  it("refuses a GPUBudget project: its operator is cluster-wide", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbts-edit-ns-"));
    dirs.push(dir);
    await runInit(dir, { domain: "lab.example.com", repo: "lab.example.com/gpubudget", runtime: "registry" });
    await runCreateApi(dir, {
      group: "capacity",
      version: "v1alpha1",
      kind: "GPUBudget",
      plugins: ["gpu-budget/v1-alpha"],
    });
    const before = readTree(dir);
    await expect(runEdit(dir, { namespaced: true })).rejects.toThrow(
      /GPUBudget operator cannot be namespaced/,
    );
    expect(readTree(dir)).toEqual(before);
  });

  it("is a kbts edit flag: --namespaced and --namespaced=false", async () => {
    const dir = await project(false);
    const on = await execa("node", [KBTS, "edit", "--namespaced"], { cwd: dir });
    expect(on.stdout).toContain("namespaced is now true");
    expect(read(dir, "PROJECT")).toMatch(/^namespaced: true$/m);
    const off = await execa("node", [KBTS, "edit", "--namespaced=false"], { cwd: dir });
    expect(off.stdout).toContain("namespaced is now false");
    expect(read(dir, "PROJECT")).not.toMatch(/^namespaced: true$/m);
  });
});
