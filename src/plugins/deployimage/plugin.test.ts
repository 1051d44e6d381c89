import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseAllDocuments, parse as parseYaml } from "yaml";
import { readTree } from "../../../testdata/golden.js";
import { runAlphaGenerate } from "../../commands/alpha-generate.js";
import { runEdit } from "../../commands/edit.js";
import { type CreateApiFlags, runCreateApi, runInit } from "../../commands/index.js";
import { setManagerImageEnv } from "./index.js";

const MEMCACHED: CreateApiFlags = {
  group: "example.com",
  version: "v1alpha1",
  kind: "Memcached",
  plugins: ["deploy-image/v1-alpha"],
  image: "memcached:1.6.26-alpine3.19",
  imageContainerCommand: "memcached,--memory-limit=64,-o,modern,-v",
  imageContainerPort: "11211",
  runAsUser: "1001",
};

// Each test scaffolds a whole project (formatter included): seconds on a loaded machine.
describe("create api --plugins deploy-image/v1-alpha", { timeout: 60_000 }, () => {
  let dir = "";
  const read = (path: string) => readFileSync(join(dir, path), "utf8");
  beforeEach(async () => {
    dir = join(mkdtempSync(join(tmpdir(), "kbts-deployimage-plugin-")), "project");
    mkdirSync(dir);
    await runInit(dir, { domain: "testproject.org", repo: "example.com/project", runtime: "registry" });
  }, 60_000);
  afterEach(() => rmSync(join(dir, ".."), { recursive: true, force: true }));

  it("writes the API, the controller that deploys the image, its test and the sample", async () => {
    const result = await runCreateApi(dir, MEMCACHED);
    expect(result.written).toEqual(
      expect.arrayContaining([
        "api/v1alpha1/memcached_types.ts",
        "internal/controller/memcached_controller.ts",
        "internal/controller/memcached_controller.test.ts",
        "config/samples/example.com_v1alpha1_memcached.yaml",
        "config/manager/manager.yaml",
      ]),
    );
    expect(result.next).toContain("$ make manifests");
    // The conditions come from the dependents' workflow: no shared reasons file any more.
    expect(result.written).not.toContain("internal/controller/conditions.ts");

    const types = read("api/v1alpha1/memcached_types.ts");
    expect(types).toMatch(/\+kubebuilder:default=1\n.*\n.*\n\s+size\?: int32;/);
    expect(types).toMatch(/\+required\n\s+containerPort: int32;/);
    expect(types).toContain("conditions?: Condition[];");

    const controller = read("internal/controller/memcached_controller.ts");
    expect(controller).toContain('command: ["memcached", "--memory-limit=64", "-o", "modern", "-v"]');
    expect(controller).toContain(
      'ports: [{ containerPort: memcached.spec.containerPort, name: "memcached" }]',
    );
    expect(controller).toMatch(/runAsNonRoot: true,\n\s+runAsUser: 1001,/);
    // The Deployment is a dependent, ready when available; the reconciler is a DependentsReconciler
    // of that one dependent, named after the kind (no name line), with a finalize of its own.
    expect(controller).toContain("export const memcachedDeployment = dependent(Deployment, {");
    expect(controller).toContain("ready: deploymentAvailable,");
    expect(controller).toMatch(
      /export class MemcachedReconciler extends DependentsReconciler<Memcached> \{\n\s+readonly kind = MemcachedKind;\n\s+readonly dependents = \[memcachedDeployment\];\n/,
    );
    expect(controller).not.toContain("readonly name");
    expect(controller).toMatch(
      /override finalize\(memcached: Memcached\): void \{\n\s+this\.recorder\.event\(memcached, "Warning", "Deleting"/,
    );
    expect(controller).not.toMatch(/addFinalizer|createOrUpdate|setStatusCondition/);
    expect(controller).toContain("process.env.MEMCACHED_IMAGE");
    expect(read("internal/controller/memcached_controller.test.ts")).toContain(
      "new Workflow([memcachedDeployment], {",
    );
    for (const marker of [
      "groups=example.com.testproject.org,resources=memcacheds/finalizers,verbs=update",
      'groups="",resources=events,verbs=create;patch',
      "groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete",
      'groups="",resources=pods,verbs=get;list;watch',
    ]) {
      expect(controller).toContain(`// +kubebuilder:rbac:${marker}`);
    }
    // The base plugin's registration stands: DependentsReconciler takes the manager's recorder itself.
    expect(read("cmd/main.ts")).toContain("new MemcachedReconciler(mgr.getClient()).setupWithManager(mgr);");

    const sample = parseYaml(read("config/samples/example.com_v1alpha1_memcached.yaml"));
    expect(sample.spec).toEqual({ size: 1, containerPort: 11211 });

    expect(managerEnv(read("config/manager/manager.yaml"))).toEqual([
      { name: "MEMCACHED_IMAGE", value: "memcached:1.6.26-alpine3.19" },
    ]);

    const project = parseYaml(read("PROJECT"));
    expect(project.plugins["deploy-image.typescript.kbts.dev/v1-alpha"]).toEqual({
      resources: [
        {
          domain: "testproject.org",
          group: "example.com",
          kind: "Memcached",
          options: {
            containerCommand: "memcached,--memory-limit=64,-o,modern,-v",
            containerPort: "11211",
            image: "memcached:1.6.26-alpine3.19",
            runAsUser: "1001",
          },
          version: "v1alpha1",
        },
      ],
    });
    expect(project.resources).toEqual([
      expect.objectContaining({
        kind: "Memcached",
        controller: true,
        api: { crdVersion: "v1", namespaced: true },
      }),
    ]);
  });

  it("with --image alone, has no port, command or user; a second kind gets its own variable", async () => {
    await runCreateApi(dir, {
      group: "example.com",
      version: "v1alpha1",
      kind: "Busybox",
      ...only("busybox:1.36.1"),
    });
    const controller = read("internal/controller/busybox_controller.ts");
    expect(controller).not.toMatch(/ports:|command:|runAsUser:/);
    expect(read("api/v1alpha1/busybox_types.ts")).not.toContain("containerPort");
    expect(parseYaml(read("config/samples/example.com_v1alpha1_busybox.yaml")).spec).toEqual({ size: 1 });

    await runCreateApi(dir, MEMCACHED);
    const env = managerEnv(read("config/manager/manager.yaml"));
    expect(env).toEqual([
      { name: "BUSYBOX_IMAGE", value: "busybox:1.36.1" },
      { name: "MEMCACHED_IMAGE", value: "memcached:1.6.26-alpine3.19" },
    ]);
    const recorded = parseYaml(read("PROJECT")).plugins["deploy-image.typescript.kbts.dev/v1-alpha"];
    expect(recorded.resources.map((r: { kind: string }) => r.kind)).toEqual(["Busybox", "Memcached"]);
  });

  it("refuses a missing --image, naming the flag, and writes nothing", async () => {
    const before = readTree(dir);
    const { image: _, ...noImage } = MEMCACHED;
    await expect(runCreateApi(dir, noImage)).rejects.toMatchObject({
      message: expect.stringContaining("--image is missing"),
      where: "--image",
    });
    await expect(
      runCreateApi(dir, {
        group: "example.com",
        version: "v1alpha1",
        kind: "Memcached",
        plugins: ["deploy-image/v1-alpha"],
      }),
    ).rejects.toMatchObject({ where: "--image" });
    expect(readTree(dir)).toEqual(before);
  });

  it("refuses a bad port, user id or command, and image flags without the plugin", async () => {
    const before = readTree(dir);
    const cases: [Partial<CreateApiFlags>, string][] = [
      [{ imageContainerPort: "http" }, "--image-container-port"],
      [{ imageContainerPort: "70000" }, "--image-container-port"],
      [{ imageContainerPort: "0" }, "--image-container-port"],
      [{ runAsUser: "-1" }, "--run-as-user"],
      [{ runAsUser: "root" }, "--run-as-user"],
      [{ imageContainerCommand: " , " }, "--image-container-command"],
      [{ image: "memcached latest" }, "--image"],
      [{ plugins: undefined }, "--image"],
      [{ resource: false }, "--resource, --controller"],
      [{ namespaced: false }, "--namespaced"],
      [{ controllerName: "extra" }, "--controller-name"],
    ];
    for (const [change, where] of cases) {
      await expect(
        runCreateApi(dir, { ...MEMCACHED, ...change }),
        JSON.stringify(change),
      ).rejects.toMatchObject({
        where,
      });
    }
    await expect(
      runCreateApi(dir, { group: "example.com", version: "v1alpha1", kind: "Memcached", manifests: false }),
    ).rejects.toMatchObject({
      where: "--manifests",
      message: expect.stringContaining("deploy-image/v1-alpha"),
    });
    expect(readTree(dir)).toEqual(before);
  });

  it("fails without --force the second time, and with --force changes nothing", async () => {
    await runCreateApi(dir, MEMCACHED);
    const before = readTree(dir);
    await expect(runCreateApi(dir, MEMCACHED)).rejects.toThrow(/already exists/);
    await runCreateApi(dir, { ...MEMCACHED, force: true });
    expect(readTree(dir)).toEqual(before);
    // Another image with --force: the variable's value follows, nothing is added twice.
    await runCreateApi(dir, { ...MEMCACHED, image: "memcached:1.6.27", force: true });
    const env = managerEnv(read("config/manager/manager.yaml"));
    expect(env).toEqual([{ name: "MEMCACHED_IMAGE", value: "memcached:1.6.27" }]);
  });

  it("runs make manifests afterwards once the dependencies are installed, unless --manifests=false", async () => {
    // A stand-in for the project's kbts: it notes the command make runs.
    mkdirSync(join(dir, "node_modules/.bin"), { recursive: true });
    writeFileSync(join(dir, "node_modules/.bin/kbts"), '#!/bin/sh\necho "kbts $*" > ran.txt\n');
    chmodSync(join(dir, "node_modules/.bin/kbts"), 0o755);
    const skipped = await runCreateApi(dir, { ...MEMCACHED, manifests: false });
    expect(existsSync(join(dir, "ran.txt"))).toBe(false);
    expect(skipped.next).toContain("$ make manifests");
    const ran = await runCreateApi(dir, { ...MEMCACHED, force: true });
    // (--strict is the Makefile's addition under CI=true.)
    expect(read("ran.txt").trim()).toMatch(/^kbts manifests( --strict)?$/);
    expect(ran.next).toContain("If you do changes in the API run the manifests with");
  });

  it("edit --namespaced carries the change into its controllers and manager.yaml, and back", async () => {
    await runCreateApi(dir, MEMCACHED);
    await runCreateApi(dir, {
      group: "example.com",
      version: "v1alpha1",
      kind: "Busybox",
      ...only("busybox:1.36.1"),
    });
    const before = readTree(dir);
    await runEdit(dir, { namespaced: true });
    const controller = read("internal/controller/memcached_controller.ts");
    expect(controller).toContain(
      "// +kubebuilder:rbac:groups=apps,namespace=project-system,resources=deployments,verbs=get;list;watch;create;update;patch;delete",
    );
    expect(controller).toContain('command: ["memcached", "--memory-limit=64", "-o", "modern", "-v"]');
    expect(managerEnv(read("config/manager/manager.yaml"))).toEqual([
      { name: "MEMCACHED_IMAGE", value: "memcached:1.6.26-alpine3.19" },
      { name: "BUSYBOX_IMAGE", value: "busybox:1.36.1" },
      { name: "WATCH_NAMESPACE", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } },
    ]);
    await runEdit(dir, { namespaced: false });
    expect(readTree(dir)).toEqual(before);
  });

  it("in a namespaced project, puts the image variable beside WATCH_NAMESPACE, as edit --namespaced would", async () => {
    const namespaced = join(dir, "..", "namespaced");
    mkdirSync(namespaced);
    await runInit(namespaced, {
      domain: "testproject.org",
      repo: "example.com/project",
      namespaced: true,
      runtime: "registry",
    });
    await runCreateApi(namespaced, MEMCACHED);
    expect(managerEnv(readFileSync(join(namespaced, "config/manager/manager.yaml"), "utf8"))).toEqual([
      { name: "MEMCACHED_IMAGE", value: "memcached:1.6.26-alpine3.19" },
      { name: "WATCH_NAMESPACE", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } },
    ]);
    // What edit --namespaced=false then --namespaced writes is what create api wrote.
    const before = readTree(namespaced);
    await runEdit(namespaced, { namespaced: false });
    await runEdit(namespaced, { namespaced: true });
    expect(readTree(namespaced)).toEqual(before);
  });

  it("is replayed by alpha generate from PROJECT, file for file", async () => {
    await runCreateApi(dir, MEMCACHED);
    await runCreateApi(dir, {
      group: "example.com",
      version: "v1alpha1",
      kind: "Busybox",
      ...only("busybox:1.36.1"),
    });
    const out = join(dir, "..", "out");
    await runAlphaGenerate(dir, { outputDir: out, runtime: "registry" });
    expect(readTree(out)).toEqual(readTree(dir));
  });
});

/** The manager container's env in config/manager/manager.yaml (its Deployment document). */
function managerEnv(text: string): unknown {
  const deployment = parseAllDocuments(text)
    .map((d) => d.toJS())
    .find((d) => d?.kind === "Deployment");
  return deployment.spec.template.spec.containers[0].env;
}

const only = (image: string): Partial<CreateApiFlags> => ({ plugins: ["deploy-image/v1-alpha"], image });

describe("the manager's image variable", () => {
  const manager = (env: string) =>
    `      containers:\n      - command:\n        - node\n${env}        image: controller:latest\n        name: manager\n`;

  it("is added under an existing env:, or in a new env: before image:", () => {
    const withEnv = manager("        env:\n        - name: WATCH_NAMESPACE\n          value: x\n");
    expect(setManagerImageEnv(withEnv, "A_IMAGE", "a:1")).toBe(
      manager(
        "        env:\n        - name: A_IMAGE\n          value: a:1\n        - name: WATCH_NAMESPACE\n          value: x\n",
      ),
    );
    // After the image variables already there, so they keep PROJECT's order.
    expect(setManagerImageEnv(setManagerImageEnv(withEnv, "A_IMAGE", "a:1"), "B_IMAGE", "b:1")).toBe(
      manager(
        "        env:\n        - name: A_IMAGE\n          value: a:1\n        - name: B_IMAGE\n          value: b:1\n        - name: WATCH_NAMESPACE\n          value: x\n",
      ),
    );
    expect(setManagerImageEnv(manager(""), "A_IMAGE", "a:1")).toBe(
      manager("        env:\n        - name: A_IMAGE\n          value: a:1\n"),
    );
  });

  it("has its value replaced on a re-run, quoted when YAML needs it", () => {
    const once = setManagerImageEnv(manager(""), "A_IMAGE", "a:1");
    expect(setManagerImageEnv(once, "A_IMAGE", "a:1")).toBe(once);
    expect(setManagerImageEnv(once, "A_IMAGE", "#a")).toBe(
      manager('        env:\n        - name: A_IMAGE\n          value: "#a"\n'),
    );
  });
});
