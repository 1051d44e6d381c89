import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTree } from "../../testdata/golden.js";
import { runAlphaGenerate } from "../commands/alpha-generate.js";
import { type CreateApiFlags, runCreateApi, runInit } from "../commands/index.js";
import { runManifests } from "../manifests/index.js";

const fixture = new URL("../../testdata/external-crds/cert-manager.io_certificates.yaml", import.meta.url)
  .pathname;

let dir: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "kbts-foreign-"));
  await runInit(dir, { domain: "example.com", repo: "example.com/ops", runtime: "registry" });
  mkdirSync(join(dir, "hack"), { recursive: true });
  copyFileSync(fixture, join(dir, "hack/certificates.yaml"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (path: string) => readFileSync(join(dir, path), "utf8");
const controller = (flags: Omit<CreateApiFlags, "resource" | "controller">) =>
  runCreateApi(dir, { ...flags, resource: false, controller: true });
const certificate: Omit<CreateApiFlags, "resource" | "controller"> = {
  group: "cert-manager",
  version: "v1",
  kind: "Certificate",
  externalApiPath: "hack/certificates.yaml",
  externalApiDomain: "io",
};

/** Expects the command to fail with `message` and the project to be exactly as before. */
async function refused(action: () => Promise<unknown>, message: RegExp | string): Promise<void> {
  const before = readTree(dir);
  await expect(action()).rejects.toThrow(message);
  expect(readTree(dir)).toEqual(before);
}

describe("create api --resource=false --controller for a built-in kind", () => {
  it("scaffolds the controller with Kubebuilder's RBAC markers, wires it, and records PROJECT as Kubebuilder", async () => {
    const result = await controller({ group: "apps", version: "v1", kind: "Deployment" });
    expect(result.written.sort()).toEqual([
      "PROJECT",
      "cmd/main.ts",
      "internal/controller/deployment_controller.test.ts",
      "internal/controller/deployment_controller.ts",
      "internal/controller/suite_test.ts",
    ]);
    expect(existsSync(join(dir, "api"))).toBe(false);
    const code = read("internal/controller/deployment_controller.ts");
    expect(code).toMatch(/import \{[^}]*\bDeployment,[^}]*\} from "@kbts\/runtime";/);
    expect(code).toContain(
      "// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete\n" +
        "// +kubebuilder:rbac:groups=apps,resources=deployments/status,verbs=get;update;patch\n" +
        "// +kubebuilder:rbac:groups=apps,resources=deployments/finalizers,verbs=update\n",
    );
    expect(code).toContain('controllerManagedBy(mgr).for(Deployment).named("deployment").complete(this);');
    const main = read("cmd/main.ts");
    expect(main).toContain(
      'import { DeploymentReconciler } from "../internal/controller/deployment_controller.js";\n\n// +kubebuilder:scaffold:imports',
    );
    expect(main).toMatch(
      /\n {2}new DeploymentReconciler\(mgr\.getClient\(\)\)\.setupWithManager\(mgr\);\n[\s\S]*\/\/ \+kubebuilder:scaffold:builder/,
    );
    expect(read("PROJECT")).toContain(
      "resources:\n- controller: true\n  core: true\n  group: apps\n  kind: Deployment\n  path: k8s.io/api/apps/v1\n  version: v1\n",
    );
    expect(read("internal/controller/suite_test.ts")).toContain("errorIfPathMissing: false,");
  });

  it('spells the core group as Kubebuilder does: groups=core in markers, "" in the ClusterRole', async () => {
    await controller({ group: "core", version: "v1", kind: "Pod" });
    await controller({ group: "networking", version: "v1", kind: "Ingress" });
    expect(read("internal/controller/pod_controller.ts")).toContain(
      "// +kubebuilder:rbac:groups=core,resources=pods,verbs=get;list;watch;create;update;patch;delete",
    );
    expect(read("PROJECT")).toContain(
      "- controller: true\n  core: true\n  group: core\n  kind: Pod\n  path: k8s.io/api/core/v1\n",
    );
    expect(read("PROJECT")).toContain("  domain: k8s.io\n  group: networking\n  kind: Ingress\n");
    await runManifests({}, dir);
    const role = read("config/rbac/role.yaml");
    expect(role).toContain(
      '- apiGroups:\n  - ""\n  resources:\n  - pods\n  verbs:\n  - create\n  - delete\n  - get',
    );
    expect(role).toContain("- apiGroups:\n  - networking.k8s.io\n  resources:\n  - ingresses\n");
    expect(role).toContain(
      '- apiGroups:\n  - ""\n  resources:\n  - pods/status\n  verbs:\n  - get\n  - patch\n  - update',
    );
  });

  it("puts the controller under internal/controller/<group>/ in a multigroup project", async () => {
    writeFileSync(join(dir, "PROJECT"), read("PROJECT").replace("layout:", "multigroup: true\nlayout:"));
    await controller({ group: "apps", version: "v1", kind: "Deployment" });
    expect(read("internal/controller/apps/deployment_controller.ts")).toContain('.named("apps-deployment")');
    expect(read("cmd/main.ts")).toContain('from "../internal/controller/apps/deployment_controller.js"');
  });

  it("refuses an unknown built-in kind with a suggestion, and --resource=true in a built-in group", async () => {
    await refused(
      () => controller({ group: "apps", version: "v1", kind: "Deploymnt" }),
      "apps/v1 Deploymnt is not a built-in kind kbts can write a controller for",
    );
    await expect(controller({ group: "apps", version: "v1", kind: "Deploymnt" })).rejects.toMatchObject({
      fix: expect.stringContaining("did you mean --group apps --version v1 --kind Deployment?"),
    });
    await refused(
      () => runCreateApi(dir, { group: "apps", version: "v1", kind: "Deployment" }),
      'group "apps" is a built-in Kubernetes group',
    );
    await expect(
      runCreateApi(dir, { group: "apps", version: "v1", kind: "Deployment" }),
    ).rejects.toMatchObject({
      fix: expect.stringContaining("--resource=false --controller"),
    });
  });

  it("refuses a second controller for the same kind without --force", async () => {
    await controller({ group: "apps", version: "v1", kind: "Deployment" });
    await refused(
      () => controller({ group: "apps", version: "v1", kind: "Deployment" }),
      "API resource already exists",
    );
  });

  it("scopes the markers to the operator's namespace in a namespaced project", async () => {
    writeFileSync(join(dir, "PROJECT"), read("PROJECT").replace("layout:", "namespaced: true\nlayout:"));
    await controller({ group: "apps", version: "v1", kind: "Deployment" });
    expect(read("internal/controller/deployment_controller.ts")).toMatch(
      /\/\/ \+kubebuilder:rbac:groups=apps,namespace=kbts-foreign-\w+-system,resources=deployments,verbs=/,
    );
  });
});

describe("create api --resource=false --controller --external-api-path", () => {
  it("from a CRD file: generates its types under api/external and records PROJECT as Kubebuilder", async () => {
    const result = await controller(certificate);
    expect(result.written).toContain("api/external/cert-manager.io/v1/certificate_types.ts");
    expect(read("api/external/cert-manager.io/v1/certificate_types.ts")).toContain(
      "export const CertificateKind = defineKind<Certificate>({",
    );
    const code = read("internal/controller/certificate_controller.ts");
    expect(code).toMatch(
      /import \{\s+type Certificate,\s+CertificateKind,?\s+\} from "\.\.\/\.\.\/api\/external\/cert-manager\.io\/v1\/certificate_types\.js";/,
    );
    expect(code).toContain(
      "// +kubebuilder:rbac:groups=cert-manager.io,resources=certificates,verbs=get;list;watch;create;update;patch;delete",
    );
    expect(read("PROJECT")).toContain(
      "- controller: true\n  domain: io\n  external: true\n  group: cert-manager\n  kind: Certificate\n  path: ./hack/certificates.yaml\n  version: v1\n",
    );
    await runManifests({}, dir);
    expect(existsSync(join(dir, "config/crd/bases"))).toBe(false);
    expect(read("config/rbac/role.yaml")).toContain(
      "- apiGroups:\n  - cert-manager.io\n  resources:\n  - certificates/finalizers\n",
    );
  });

  it("takes the whole API group as --external-api-domain too, recording the domain after the group", async () => {
    const result = await controller({ ...certificate, externalApiDomain: "cert-manager.io" });
    expect(result.next).toContain("PROJECT records the domain after the group");
    expect(read("PROJECT")).toContain("  domain: io\n  external: true\n");
  });

  it("from an npm package: imports from it and adds --external-api-module to package.json", async () => {
    await controller({
      group: "cert-manager",
      version: "v1",
      kind: "Certificate",
      externalApiPath: "@acme/cert-types/v1",
      externalApiDomain: "io",
      externalApiModule: "@acme/cert-types@^1.2.0",
    });
    expect(read("internal/controller/certificate_controller.ts")).toContain(
      'import { type Certificate, CertificateKind } from "@acme/cert-types/v1";',
    );
    expect(JSON.parse(read("package.json")).dependencies["@acme/cert-types"]).toBe("^1.2.0");
    expect(read("PROJECT")).toContain('  module: "@acme/cert-types@^1.2.0"\n  path: "@acme/cert-types/v1"\n');
  });

  it("from a local TypeScript folder written by kbts generate --from-crd", async () => {
    mkdirSync(join(dir, "types/v1"), { recursive: true });
    writeFileSync(join(dir, "types/v1/certificate_types.ts"), "export {};\n");
    await controller({ ...certificate, externalApiPath: "./types/v1" });
    expect(read("internal/controller/certificate_controller.ts")).toContain(
      'from "../../types/v1/certificate_types.js";',
    );
  });

  it.each<[string, Partial<CreateApiFlags>, string]>([
    [
      "--external-api-* with --resource=true",
      { resource: true },
      "--external-api-path is for a kind defined outside the project",
    ],
    [
      "--external-api-module without a path",
      { externalApiPath: undefined, externalApiModule: "x@1" },
      "--external-api-module requires --external-api-path",
    ],
    ["a module with a CRD file", { externalApiModule: "x@1" }, "types from a CRD file need none"],
    [
      "a group that is not the CRD's",
      { group: "certs" },
      "--group certs is not the group of hack/certificates.yaml's Certificate, cert-manager.io",
    ],
    [
      "a domain that contradicts the CRD",
      { externalApiDomain: "example.org" },
      "makes the API group cert-manager.example.org",
    ],
    ["a version the CRD does not serve", { version: "v1alpha2" }, "does not serve version v1alpha2"],
    ["a kind the file does not define", { kind: "Issuer" }, "has no CustomResourceDefinition of kind Issuer"],
    ["a file that is not a CRD", { externalApiPath: "PROJECT.yaml" }, "PROJECT.yaml does not exist"],
    ["a path outside the project", { externalApiPath: "../elsewhere/types" }, "is outside the project"],
    [
      "a version in the path",
      { externalApiPath: "@acme/types@1.0.0/v1" },
      "versions belong in --external-api-module",
    ],
    [
      "a module of another package",
      { externalApiPath: "@acme/types/v1", externalApiModule: "@other/types@1" },
      "does not name the package of --external-api-path",
    ],
    [
      "a third-party group without --external-api-path",
      { externalApiPath: undefined, externalApiDomain: undefined },
      "no API found for cert-manager/v1, Kind=Certificate",
    ],
  ])("refuses %s and writes nothing", async (_, override, message) => {
    await refused(
      () => runCreateApi(dir, { ...certificate, resource: false, controller: true, ...override }),
      message,
    );
  });

  it("refuses a CRD path that holds no CRD, naming the file", async () => {
    writeFileSync(
      join(dir, "hack/deploy.yaml"),
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n",
    );
    await refused(
      () => controller({ ...certificate, externalApiPath: "hack/deploy.yaml" }),
      `${join(dir, "hack/deploy.yaml")} is not a CustomResourceDefinition file: it holds Deployment`,
    );
  });

  it("gives the same bytes on every run (a golden project can hold them)", async () => {
    await controller({ group: "apps", version: "v1", kind: "Deployment" });
    await controller(certificate);
    const first = readTree(dir);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    await runInit(dir, { domain: "example.com", repo: "example.com/ops", runtime: "registry" });
    mkdirSync(join(dir, "hack"), { recursive: true });
    copyFileSync(fixture, join(dir, "hack/certificates.yaml"));
    await controller({ group: "apps", version: "v1", kind: "Deployment" });
    await controller(certificate);
    expect(readTree(dir)).toEqual(first);
  });

  it("is re-scaffolded from PROJECT by kbts alpha generate, the CRD file coming along", async () => {
    await controller({ group: "apps", version: "v1", kind: "Deployment" });
    await controller(certificate);
    const out = join(dir, "..", `${dir.split("/").pop()}-regen`);
    try {
      await runAlphaGenerate(dir, { outputDir: out, runtime: "registry" });
      const regenerated = readTree(out);
      for (const [path, content] of readTree(dir)) {
        expect({ path, content: regenerated.get(path) }).toEqual({ path, content });
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
