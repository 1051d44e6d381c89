import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTree } from "../../testdata/golden.js";
import { runAlphaGenerate } from "../commands/alpha-generate.js";
import { runEdit } from "../commands/edit.js";
import { type CreateApiFlags, runCreateApi, runInit } from "../commands/index.js";

let dir: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "kbts-named-controllers-"));
  await runInit(join(dir, "p"), { domain: "example.com", repo: "example.com/p", runtime: "registry" });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const project = () => join(dir, "p");
const read = (path: string) => readFileSync(join(project(), path), "utf8");
const memcached = { group: "cache", version: "v1alpha1", kind: "Memcached" };
const api = (flags: Partial<CreateApiFlags> = {}) => runCreateApi(project(), { ...memcached, ...flags });
const named = (controllerName: string, flags: Partial<CreateApiFlags> = {}) =>
  api({ resource: false, controllerName, ...flags });

/** Expects the command to fail with `message` (and `fix`, if given) and the project to be exactly as before. */
async function refused(action: () => Promise<unknown>, message: string, fix?: string): Promise<void> {
  const before = readTree(project());
  const err = await action().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  expect((err as Error).message).toContain(message);
  if (fix !== undefined) expect((err as { fix?: string }).fix).toContain(fix);
  expect(readTree(project())).toEqual(before);
}

describe("create api --controller-name", () => {
  it("adds a second controller with its own file, reconciler, runtime name, test and wiring", async () => {
    await api();
    const result = await named("memcached-backup");
    expect(result.written.sort()).toEqual([
      "PROJECT",
      "cmd/main.ts",
      "internal/controller/memcached_backup_controller.test.ts",
      "internal/controller/memcached_backup_controller.ts",
    ]);
    const code = read("internal/controller/memcached_backup_controller.ts");
    expect(code).toContain("export class MemcachedBackupReconciler implements Reconciler {");
    expect(code).toContain('.named("memcached-backup")');
    expect(code).toContain(
      "// +kubebuilder:rbac:groups=cache.example.com,resources=memcacheds,verbs=get;list;watch\n" +
        "// +kubebuilder:rbac:groups=cache.example.com,resources=memcacheds/status,verbs=update\n",
    );
    const test = read("internal/controller/memcached_backup_controller.test.ts");
    expect(test).toContain('import { MemcachedBackupReconciler } from "./memcached_backup_controller.js";');
    expect(test).toContain("new MemcachedBackupReconciler(client)");
    expect(test).toContain('newReconcileContext({ controllerName: "memcached-backup" })');
    // The kind's first controller is untouched.
    expect(read("internal/controller/memcached_controller.ts")).toContain('.named("memcached")');
    const main = read("cmd/main.ts");
    expect(main).toContain(
      'import { MemcachedBackupReconciler } from "../internal/controller/memcached_backup_controller.js";\n' +
        'import { MemcachedReconciler } from "../internal/controller/memcached_controller.js";\n',
    );
    expect(main).toContain(
      "  new MemcachedReconciler(mgr.getClient()).setupWithManager(mgr);\n" +
        "  new MemcachedBackupReconciler(mgr.getClient()).setupWithManager(mgr);\n",
    );
  });

  it("records PROJECT's controllers list as Kubebuilder: the first controller joins it by the kind's name", async () => {
    await api();
    expect(read("PROJECT")).toContain("  controller: true\n");
    await named("memcached-backup");
    await named("audit");
    const project = read("PROJECT");
    expect(project).toContain(
      "- api:\n    crdVersion: v1\n    namespaced: true\n  controllers:\n  - name: memcached\n  - name: memcached-backup\n  - name: audit\n  domain: example.com\n",
    );
    expect(project).not.toContain("controller: true");
    expect(read("internal/controller/audit_controller.ts")).toContain("export class AuditReconciler");
    // Re-scaffolding the API and its own controller keeps the list as it is.
    await api({ force: true });
    expect(read("PROJECT")).toBe(project);
  });

  it("names the kind's first controller when the API is created with --controller-name", async () => {
    await api({ controllerName: "primary" });
    expect(read("PROJECT")).toContain("  controllers:\n  - name: primary\n");
    expect(read("PROJECT")).not.toContain("controller: true");
    expect(read("internal/controller/primary_controller.ts")).toContain("export class PrimaryReconciler");
    expect(read("cmd/main.ts")).toContain("new PrimaryReconciler(mgr.getClient()).setupWithManager(mgr);");
  });

  it("prefixes the runtime name with the group in a multigroup project, as Kubebuilder", async () => {
    writeFileSync(
      join(project(), "PROJECT"),
      read("PROJECT").replace("layout:", "multigroup: true\nlayout:"),
    );
    await api();
    await named("memcached-backup");
    expect(read("internal/controller/cache/memcached_backup_controller.ts")).toContain(
      '.named("cache-memcached-backup")',
    );
    expect(read("cmd/main.ts")).toContain(
      'from "../internal/controller/cache/memcached_backup_controller.js";',
    );
  });

  it("names a controller of a built-in kind too", async () => {
    const deployment = { group: "apps", version: "v1", kind: "Deployment", resource: false };
    await runCreateApi(project(), deployment);
    await runCreateApi(project(), { ...deployment, controllerName: "deployment-audit" });
    const code = read("internal/controller/deployment_audit_controller.ts");
    expect(code).toContain("export class DeploymentAuditReconciler implements Reconciler {");
    expect(code).toContain(
      'controllerManagedBy(mgr).for(Deployment).named("deployment-audit").complete(this);',
    );
    expect(read("PROJECT")).toContain(
      "- controllers:\n  - name: deployment\n  - name: deployment-audit\n  core: true\n  group: apps\n",
    );
  });

  it("refuses a name the kind has, one that makes the same class, a bad name, and --controller=false", async () => {
    await api();
    await named("memcached-backup");
    await refused(
      () => named("memcached-backup"),
      'controller "memcached-backup" already exists for cache/v1alpha1, Kind=Memcached',
    );
    await refused(() => named("memcached"), 'controller "memcached" already exists');
    await refused(
      () => named("memcachedbackup"),
      'controller name "memcachedbackup" conflicts with "memcached-backup"',
    );
    await refused(() => named("Backup_1"), 'invalid controller name "Backup_1"', "DNS-1035 label");
    await refused(() => named("1backup"), 'invalid controller name "1backup"');
    await refused(
      () => named("other", { controller: false }),
      "--controller-name names a controller, but --controller=false scaffolds none",
    );
    await refused(
      () => api({ resource: false }),
      "Memcached already has named controllers (memcached, memcached-backup)",
      "--controller-name",
    );
  });

  it("points a second unnamed controller at --controller-name", async () => {
    await api();
    await refused(() => api({ resource: false }), "API resource already exists", "--controller-name <name>");
  });

  it("scopes every named controller's RBAC markers with edit --namespaced, and moves them with edit --multigroup", async () => {
    await api();
    await named("memcached-backup");
    await runEdit(project(), { namespaced: true });
    for (const file of ["memcached_controller.ts", "memcached_backup_controller.ts"]) {
      expect(read(`internal/controller/${file}`)).toContain(
        "// +kubebuilder:rbac:groups=cache.example.com,namespace=p-system,resources=memcacheds,verbs=get;list;watch\n",
      );
    }
    const moved = await runEdit(project(), { multigroup: true });
    expect(moved.next).toContain(
      "internal/controller/memcached_backup_controller.ts -> internal/controller/cache/memcached_backup_controller.ts",
    );
  });

  it("lists the kind's own controller when create api --force adds it beside named ones, and replays it", async () => {
    await api({ controller: false });
    await named("memcached-backup");
    await api({ force: true });
    expect(read("PROJECT")).toContain("  controllers:\n  - name: memcached-backup\n  - name: memcached\n");
    expect(read("cmd/main.ts")).toContain("new MemcachedReconciler(");
    const out = join(dir, "out");
    await runAlphaGenerate(dir, { inputDir: "p", outputDir: out, runtime: "registry" });
    expect(readTree(out)).toEqual(readTree(project()));
  }, 60_000);

  it("replays a deploy-image kind that got a named controller afterwards", async () => {
    await api({ plugins: ["deploy-image/v1-alpha"], image: "memcached:1.6.26-alpine3.19", manifests: false });
    await named("memcached-backup");
    const out = join(dir, "out");
    await runAlphaGenerate(dir, { inputDir: "p", outputDir: out, runtime: "registry" });
    expect(readTree(out)).toEqual(readTree(project()));
  }, 60_000);

  it("is replayed by kbts alpha generate, file for file", async () => {
    await api();
    await named("memcached-backup");
    await runCreateApi(project(), { ...memcached, kind: "Cache", controller: false });
    await runCreateApi(project(), { ...memcached, kind: "Cache", resource: false, controllerName: "warmer" });
    const out = join(dir, "out");
    await runAlphaGenerate(dir, { inputDir: "p", outputDir: out, runtime: "registry" });
    expect(readTree(out)).toEqual(readTree(project()));
  }, 60_000);
});
