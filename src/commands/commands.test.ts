import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTree } from "../../testdata/golden.js";
import { runCreateApi, runCreateWebhook, runInit } from "./index.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kbts-cmd-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const init = () =>
  runInit(dir, { domain: "example.com", repo: "example.com/memcached", runtime: "registry" });
const api = { group: "cache", version: "v1alpha1", kind: "Memcached" };

/** Runs `action`, expects it to fail with `message`, and checks the tree did not change at all. */
async function failsWithoutWriting(action: () => Promise<unknown>, message: RegExp): Promise<void> {
  const before = readTree(dir);
  await expect(action()).rejects.toThrow(message);
  expect(readTree(dir)).toEqual(before);
}

describe("kbts init", () => {
  it("writes the project and records the layout in PROJECT", async () => {
    const result = await init();
    expect(result.written).toContain("cmd/main.ts");
    const project = readFileSync(join(dir, "PROJECT"), "utf8");
    expect(project).toContain("layout:\n- typescript.kbts.dev/v1\n");
    expect(project).toContain("repo: example.com/memcached\n");
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(Object.keys(pkg.dependencies)).toEqual(["@kbts/runtime"]);
    expect(pkg.devDependencies.kbts).toMatch(/^\^\d+\.\d+\.\d+$/);
  });

  it.each(["PROJECT", "Makefile", "cmd/main.ts"])("refuses a directory that already has %s", async (file) => {
    if (file === "cmd/main.ts") {
      await init();
      rmSync(join(dir, "PROJECT"));
      rmSync(join(dir, "Makefile"));
    } else writeFileSync(join(dir, file), "mine\n");
    await failsWithoutWriting(init, /already initialized/);
  });

  it("rejects bad flags before writing anything", async () => {
    await failsWithoutWriting(() => runInit(dir, { domain: "Example.com" }), /not a DNS-1123 subdomain/);
    await failsWithoutWriting(
      () => runInit(dir, { domain: "a.b", plugins: ["go/v4"] }),
      /unknown plugin "go\/v4"/,
    );
    await failsWithoutWriting(() => runInit(dir, { domain: "a.b", license: "mit" }), /unknown license/);
    await failsWithoutWriting(
      () => runInit(dir, { domain: "a.b", projectName: "My_Project" }),
      /project name/,
    );
    expect(readTree(dir).size).toBe(0);
  });

  it("links the checkout's runtime and CLI by default when run from a checkout", async () => {
    await runInit(dir, { domain: "example.com" });
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(pkg.dependencies["@kbts/runtime"]).toMatch(/^file:\/.*\/runtime$/);
    expect(existsSync(pkg.dependencies["@kbts/runtime"].slice(5))).toBe(true);
    expect(pkg.devDependencies.kbts).toMatch(/^file:\//);
  });
});

describe("kbts create api", () => {
  it("needs a PROJECT", async () => {
    await failsWithoutWriting(() => runCreateApi(dir, api), /no PROJECT file/);
  });

  it.each([
    [{ ...api, kind: "memcached" }, /must be PascalCase/],
    [{ ...api, group: "Cache" }, /not a DNS-1123 subdomain/],
    [{ ...api, version: "1" }, /not a Kubernetes API version/],
    [{ ...api, plural: "Memcacheds" }, /plural/],
    [{ ...api, plugins: ["nope/v1"] }, /unknown plugin/],
    [{ ...api, resource: false }, /no API found .* to write a controller for/],
    [{ ...api, resource: false, controller: false }, /nothing to create/],
  ])("rejects %j without writing", async (flags, message) => {
    await init();
    await failsWithoutWriting(() => runCreateApi(dir, flags), message);
  });

  it("fails the second time without --force and leaves every file byte-identical", async () => {
    await init();
    await runCreateApi(dir, api);
    await failsWithoutWriting(() => runCreateApi(dir, api), /API resource already exists/);
    // --force re-scaffolds the owned files; insertion points are not duplicated.
    await runCreateApi(dir, { ...api, force: true });
    const main = readFileSync(join(dir, "cmd/main.ts"), "utf8");
    expect(main.match(/new MemcachedReconciler/g)).toHaveLength(1);
  });

  it("adds a controller later to an API created with --controller=false", async () => {
    await init();
    await runCreateApi(dir, { ...api, controller: false });
    expect(existsSync(join(dir, "internal/controller/memcached_controller.ts"))).toBe(false);
    await runCreateApi(dir, { ...api, resource: false });
    expect(readFileSync(join(dir, "cmd/main.ts"), "utf8")).toContain(
      "new MemcachedReconciler(mgr.getClient())",
    );
    expect(readFileSync(join(dir, "PROJECT"), "utf8")).toContain("  controller: true\n");
  });

  it("is idempotent: re-running the same commands with --force changes no byte", async () => {
    await init();
    await runCreateApi(dir, api);
    await runCreateWebhook(dir, { ...api, defaulting: true, programmaticValidation: true });
    await runCreateWebhook(dir, { group: "core", version: "v1", kind: "Pod", programmaticValidation: true });
    const before = readTree(dir);
    await runCreateApi(dir, { ...api, force: true });
    await runCreateWebhook(dir, { ...api, defaulting: true, programmaticValidation: true, force: true });
    await runCreateWebhook(dir, {
      group: "core",
      version: "v1",
      kind: "Pod",
      programmaticValidation: true,
      force: true,
    });
    expect(readTree(dir)).toEqual(before);
  });

  it("allows a second group only in a multigroup project", async () => {
    await init();
    await runCreateApi(dir, api);
    await failsWithoutWriting(
      () => runCreateApi(dir, { group: "ship", version: "v1", kind: "Frigate" }),
      /multiple groups are not allowed/,
    );
  });

  it("scaffolds a cluster-scoped kind with an irregular plural", async () => {
    await init();
    await runCreateApi(dir, { ...api, kind: "Admiral", plural: "admirales", namespaced: false });
    const types = readFileSync(join(dir, "api/v1alpha1/admiral_types.ts"), "utf8");
    expect(types).toContain("// +kubebuilder:resource:path=admirales,scope=Cluster\n");
    expect(readFileSync(join(dir, "PROJECT"), "utf8")).toContain("plural: admirales");
    expect(readFileSync(join(dir, "config/crd/kustomization.yaml"), "utf8")).toContain(
      "- bases/cache.example.com_admirales.yaml\n",
    );
  });

  it("makes the existing version the storage version when a second version of a kind is added", async () => {
    await init();
    await runCreateApi(dir, api);
    await runCreateApi(dir, { ...api, version: "v1beta1", controller: false });
    const v1alpha1 = readFileSync(join(dir, "api/v1alpha1/memcached_types.ts"), "utf8");
    expect(v1alpha1).toContain(
      "// +kubebuilder:object:root=true\n// +kubebuilder:storageversion\n// +kubebuilder:subresource:status\n",
    );
    expect(readFileSync(join(dir, "api/v1beta1/memcached_types.ts"), "utf8")).not.toContain("storageversion");
    await runCreateApi(dir, { ...api, version: "v1", controller: false });
    expect(
      readFileSync(join(dir, "api/v1alpha1/memcached_types.ts"), "utf8").match(/storageversion/g),
    ).toHaveLength(1);
  });

  it("stops at a removed insertion point, writing nothing", async () => {
    await init();
    const main = join(dir, "cmd/main.ts");
    writeFileSync(main, readFileSync(main, "utf8").replace("// +kubebuilder:scaffold:builder", ""));
    await failsWithoutWriting(
      () => runCreateApi(dir, api),
      /insertion point "\/\/ \+kubebuilder:scaffold:builder"/,
    );
  });
});

describe("kbts create webhook", () => {
  it("needs an API of the project unless the kind is core", async () => {
    await init();
    await failsWithoutWriting(
      () => runCreateWebhook(dir, { ...api, defaulting: true }),
      /no API found for cache\/v1alpha1, Kind=Memcached/,
    );
    await failsWithoutWriting(
      () => runCreateWebhook(dir, { group: "core", version: "v1", kind: "Pod" }),
      /at least one of --defaulting, --programmatic-validation and --conversion/,
    );
  });

  it("wires a core Pod validator with the double-dash path", async () => {
    await init();
    await runCreateWebhook(dir, { group: "core", version: "v1", kind: "Pod", programmaticValidation: true });
    const file = readFileSync(join(dir, "internal/webhook/v1/pod_webhook.ts"), "utf8");
    expect(file).toContain(
      'path=/validate--v1-pod,mutating=false,failurePolicy=fail,sideEffects=None,groups=""',
    );
    const kustomize = readFileSync(join(dir, "config/default/kustomization.yaml"), "utf8");
    expect(kustomize).toContain("\n- ../webhook\n");
    expect(kustomize).toContain("\n- ../certmanager\n");
    expect(kustomize).toContain("\nreplacements:\n");
    expect(readFileSync(join(dir, "PROJECT"), "utf8")).toContain(
      "- core: true\n  group: core\n  kind: Pod\n",
    );
    await failsWithoutWriting(
      () =>
        runCreateWebhook(dir, { group: "core", version: "v1", kind: "Pod", programmaticValidation: true }),
      /webhook already exists/,
    );
  });
});
