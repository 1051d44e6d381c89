import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { readTree } from "../../testdata/golden.js";
import { runCreateApi, runCreateWebhook, runInit } from "../commands/index.js";

// `kbts create webhook --conversion --spoke`: Kubebuilder's hub and spoke, in TypeScript.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kbts-conversion-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (path: string) => readFileSync(join(dir, path), "utf8");

interface RbacObject {
  kind: string;
  rules?: { apiGroups?: string[]; resources?: string[]; resourceNames?: string[]; verbs?: string[] }[];
}
const captain = { group: "crew", kind: "Captain" };

/** A project with Captain in v1alpha1 (first, so the storage version), v1 and v2. */
async function threeVersions(multigroup = false): Promise<void> {
  await runInit(dir, {
    domain: "testproject.org",
    repo: "example.com/mv",
    runtime: "registry",
    multigroup,
  });
  await runCreateApi(dir, { ...captain, version: "v1alpha1" });
  await runCreateApi(dir, { ...captain, version: "v1", controller: false });
  await runCreateApi(dir, { ...captain, version: "v2", controller: false });
}

async function failsWithoutWriting(action: () => Promise<unknown>, message: RegExp): Promise<void> {
  const before = readTree(dir);
  await expect(action()).rejects.toThrow(message);
  expect(readTree(dir)).toEqual(before);
}

describe("kbts create api for more versions of a kind", () => {
  it("keeps one storage version, also when it is re-scaffolded, and says how to convert", async () => {
    await runInit(dir, { domain: "testproject.org", repo: "example.com/mv", runtime: "registry" });
    const first = await runCreateApi(dir, { ...captain, version: "v1alpha1" });
    expect(first.next).not.toContain("create webhook");
    await runCreateApi(dir, { ...captain, version: "v1", controller: false });
    const third = await runCreateApi(dir, { ...captain, version: "v2", controller: false });
    expect(third.next).toContain(
      "Captain now has versions v1alpha1, v1, v2 (v1alpha1 is the storage version). To convert between them, pick a hub and run:\n$ kbts create webhook --group crew --version <hub> --kind Captain --conversion --spoke <the other versions>",
    );
    // --force rewrites v1alpha1's types from the template: it stays the storage version.
    await runCreateApi(dir, { ...captain, version: "v1alpha1", controller: false, force: true });
    const marked = ["v1alpha1", "v1", "v2"].filter((v) =>
      read(`api/${v}/captain_types.ts`).includes("// +kubebuilder:storageversion"),
    );
    expect(marked).toEqual(["v1alpha1"]);
  }, 60_000);
});

describe("kbts create webhook --conversion", () => {
  it("makes v1 the hub and storage version, v1alpha1 and v2 its spokes, and says how to migrate", async () => {
    await threeVersions();
    expect(read("api/v1alpha1/captain_types.ts")).toContain("+kubebuilder:storageversion");
    const result = await runCreateWebhook(dir, {
      ...captain,
      version: "v1",
      conversion: true,
      spoke: ["v1alpha1", "v2"],
    });

    // Exactly one version is stored: the hub.
    for (const [version, marked] of [
      ["v1", true],
      ["v1alpha1", false],
      ["v2", false],
    ] as const) {
      const types = read(`api/${version}/captain_types.ts`);
      expect(types.includes("// +kubebuilder:storageversion"), version).toBe(marked);
    }
    expect(read("api/v1/captain_types.ts")).toContain(
      "// +kubebuilder:object:root=true\n// +kubebuilder:storageversion\n// +kubebuilder:subresource:status\n",
    );

    // PROJECT as Kubebuilder writes it: the hub's entry carries the conversion and its spokes.
    expect(read("PROJECT")).toContain(
      "  path: example.com/mv/api/v1\n  version: v1\n  webhooks:\n    conversion: true\n    spoke:\n    - v1alpha1\n    - v2\n    webhookVersion: v1\n",
    );

    // Typed functions in each spoke's folder; the hub joins them.
    for (const spoke of ["v1alpha1", "v2"]) {
      const conversion = read(`api/${spoke}/captain_conversion.ts`);
      expect(conversion).toContain(
        "export const captainConversion = defineSpoke(CaptainV1Kind, CaptainKind, {",
      );
      expect(conversion).toContain("convertTo(src: Captain): CaptainV1 {");
      expect(conversion).toContain("convertFrom(hub: CaptainV1): Captain {");
      expect(conversion).toContain('import type { Captain as CaptainV1 } from "../v1/captain_types.js";');
      // Same fields in all three versions: everything is copied, nothing left to do.
      expect(conversion).toContain("spec: src.spec,");
      expect(conversion).not.toContain("TODO(user): spec");
    }
    const hub = read("api/v1/captain_conversion.ts");
    expect(hub).toContain("export const captainSpokes = [captainV1alpha1, captainV2] as const;");
    expect(hub).toContain("export const captainConverter = hubAndSpokes(CaptainKind, ...captainSpokes);");

    // Served by the manager at /convert.
    const main = read("cmd/main.ts");
    expect(main).toMatch(/import \{[^}]*webhookManagedBy[^}]*\} from "@kbts\/runtime";/);
    expect(main).toContain('import { captainSpokes } from "../api/v1/captain_conversion.js";');
    expect(main).toMatch(
      /webhookManagedBy\(mgr, CaptainKind\)\s*\.withConversion\(\.\.\.captainSpokes\)\s*\.complete\(\);/,
    );

    // The round-trip test of each spoke's sample.
    const test = read("internal/webhook/v1/captain_conversion.test.ts");
    expect(test).toContain('["v1alpha1", "config/samples/crew_v1alpha1_captain.yaml"]');
    expect(test).toContain('["v2", "config/samples/crew_v2_captain.yaml"]');

    // config/crd: the conversion webhook and CA injection patches, and their kustomization entries.
    expect(read("config/crd/patches/webhook_in_captains.yaml")).toContain(
      "  name: captains.crew.testproject.org\nspec:\n  conversion:\n    strategy: Webhook\n",
    );
    expect(read("config/crd/patches/cainjection_in_captains.yaml")).toContain(
      "cert-manager.io/inject-ca-from: CERTIFICATE_NAMESPACE/CERTIFICATE_NAME\n  name: captains.crew.testproject.org\n",
    );
    const crdKustomization = read("config/crd/kustomization.yaml");
    expect(crdKustomization).toContain(
      "- path: patches/webhook_in_captains.yaml\n- path: patches/cainjection_in_captains.yaml\n# +kubebuilder:scaffold:crdkustomizewebhookpatch\n",
    );
    expect(crdKustomization).toContain("\nconfigurations:\n- kustomizeconfig.yaml\n");
    const defaults = read("config/default/kustomization.yaml");
    expect(defaults).toContain(
      "         kind: CustomResourceDefinition\n         name: captains.crew.testproject.org\n       fieldPaths:\n         - .metadata.annotations.[cert-manager.io/inject-ca-from]\n       options:\n         delimiter: '/'\n         index: 0\n",
    );
    expect(defaults).toContain("\n- ../webhook\n");
    expect(read("Makefile")).toContain("\nmigrate-storage: node_modules/.bin/kbts ##");
    // Only admission webhooks make config/webhook/manifests.yaml: kustomize must not look for it here.
    expect(read("config/webhook/kustomization.yaml")).toMatch(/^resources:\n- service\.yaml\n/);
    await runCreateWebhook(dir, { ...captain, version: "v1", programmaticValidation: true });
    expect(read("config/webhook/kustomization.yaml")).toMatch(
      /^resources:\n- manifests\.yaml\n- service\.yaml\n/,
    );

    // test/e2e reads the v1alpha1 sample in every served version through the deployed conversion webhook.
    const e2e = read("test/e2e/e2e.test.ts");
    expect(e2e).toContain('it("serves Captain in every version through the conversion webhook"');
    expect(e2e).toContain('readFileSync("config/samples/crew_v1alpha1_captain.yaml", "utf8")');

    // The storage version moved from v1alpha1: kbts says what to do next.
    expect(result.next).toContain(
      "The storage version of captains.crew.testproject.org changes from v1alpha1 to v1 (the hub)",
    );
    expect(result.next).toContain("$ make migrate-storage");
  }, 60_000);

  it("copies the fields two versions share and leaves a TODO where they differ", async () => {
    await threeVersions();
    const edit = (version: string, fields: string) => {
      const path = join(dir, `api/${version}/captain_types.ts`);
      const text = readFileSync(path, "utf8")
        .replace("import type { Condition,", "import type { Condition, int32,")
        .replace("  // +optional\n  foo?: string;\n}", `  // +optional\n  foo?: string;\n${fields}\n}`);
      writeFileSync(path, text);
    };
    edit("v1alpha1", "  // +optional\n  replicas?: int32;");
    edit("v1", "  size: int32;");
    edit("v2", "  size: int32;");
    await runCreateWebhook(dir, { ...captain, version: "v1", conversion: true, spoke: ["v1alpha1", "v2"] });
    const v1alpha1 = read("api/v1alpha1/captain_conversion.ts");
    expect(v1alpha1).toContain("foo: src.spec.foo,");
    expect(v1alpha1).toContain("// TODO(user): spec.size is new in v1: set it from the v1alpha1 fields.\n");
    // A required field with no source still compiles: its zero value stands beside the TODO.
    expect(v1alpha1).toContain("size: 0,");
    expect(v1alpha1).toContain(
      "// TODO(user): spec.replicas of v1alpha1 is not in v1: keep it (e.g. in an annotation) so a round trip loses nothing.",
    );
    expect(v1alpha1).toContain("// TODO(user): spec.replicas is new in v1alpha1: set it from the v1 fields.");
    const v2 = read("api/v2/captain_conversion.ts");
    expect(v2).toContain("spec: src.spec,");
    expect(v2).not.toContain("TODO(user): spec");
  }, 60_000);

  it("refuses bad input with a clear error and writes nothing", async () => {
    await threeVersions();
    const hub = { ...captain, version: "v1", conversion: true };
    await failsWithoutWriting(
      () => runCreateWebhook(dir, { ...hub, spoke: ["v3"] }),
      /invalid spoke version "v3": PROJECT has no crew\/v3 Captain/,
    );
    await failsWithoutWriting(
      () => runCreateWebhook(dir, { ...hub, spoke: ["v1"] }),
      /spoke v1 is the hub \(--version v1\)/,
    );
    await failsWithoutWriting(
      () => runCreateWebhook(dir, { ...hub, spoke: ["v2", "v2"] }),
      /duplicate spoke version: v2/,
    );
    await failsWithoutWriting(
      () => runCreateWebhook(dir, { ...hub, spoke: ["1"] }),
      /not a Kubernetes API version/,
    );
    await failsWithoutWriting(
      () => runCreateWebhook(dir, hub),
      /needs at least one spoke version besides the hub v1/,
    );
    await failsWithoutWriting(
      () => runCreateWebhook(dir, { ...hub, kind: "Admiral", spoke: ["v2"] }),
      /no API found for crew\/v1, Kind=Admiral/,
    );
    await failsWithoutWriting(
      () => runCreateWebhook(dir, { ...captain, version: "v1", spoke: ["v2"] }),
      /--spoke names the versions of a conversion webhook/,
    );
    await failsWithoutWriting(
      () =>
        runCreateWebhook(dir, { group: "core", version: "v1", kind: "Pod", conversion: true, spoke: ["v2"] }),
      /built-in kind: conversion webhooks are for the project's own kinds/,
    );
  }, 60_000);

  it("adds a spoke later with --force, and a second hub for the kind is refused", async () => {
    await threeVersions();
    await runCreateWebhook(dir, { ...captain, version: "v1", conversion: true, spoke: ["v1alpha1"] });
    await failsWithoutWriting(
      () => runCreateWebhook(dir, { ...captain, version: "v1", conversion: true, spoke: ["v2"] }),
      /webhook already exists for crew\/v1, Kind=Captain/,
    );
    await failsWithoutWriting(
      () =>
        runCreateWebhook(dir, {
          ...captain,
          version: "v2",
          conversion: true,
          spoke: ["v1alpha1"],
          force: true,
        }),
      /Captain already has a conversion hub: v1/,
    );
    const result = await runCreateWebhook(dir, {
      ...captain,
      version: "v1",
      conversion: true,
      spoke: ["v2"],
      force: true,
    });
    expect(read("PROJECT")).toContain("    conversion: true\n    spoke:\n    - v1alpha1\n    - v2\n");
    expect(read("api/v1/captain_conversion.ts")).toContain("[captainV1alpha1, captainV2]");
    // v1 is already the storage version: nothing to migrate this time.
    expect(result.next).not.toContain("migrate-storage");
    expect(read("cmd/main.ts").match(/withConversion/g)).toHaveLength(1);
    expect(read("test/e2e/e2e.test.ts").match(/through the conversion webhook"/g)).toHaveLength(1);
    expect(read("Makefile").match(/^migrate-storage:/gm)).toHaveLength(1);
  }, 60_000);

  it("grants config/certrotation's ClusterRole get and update on each converted CRD, by name", async () => {
    await threeVersions();
    await runCreateWebhook(dir, { ...captain, version: "v1", programmaticValidation: true });
    const crdRules = () =>
      (
        parseAllDocuments(read("config/certrotation/cert_rotation_role.yaml")).map((d) =>
          d.toJS(),
        ) as RbacObject[]
      )
        .flatMap((o) => (o.rules ?? []).map((rule) => ({ kind: o.kind, ...rule })))
        .filter((rule) => rule.resources?.includes("customresourcedefinitions"));
    expect(crdRules()).toEqual([]);

    await runCreateWebhook(dir, { ...captain, version: "v1", conversion: true, spoke: ["v1alpha1", "v2"] });
    const granted = {
      kind: "ClusterRole",
      apiGroups: ["apiextensions.k8s.io"],
      resources: ["customresourcedefinitions"],
      verbs: ["get", "update"],
    };
    expect(crdRules()).toEqual([{ ...granted, resourceNames: ["captains.crew.testproject.org"] }]);

    // A second kind with conversion joins the same rule; re-scaffolding the first adds nothing.
    const ship = { group: "crew", kind: "Ship" };
    await runCreateApi(dir, { ...ship, version: "v1" });
    await runCreateApi(dir, { ...ship, version: "v2", controller: false });
    await runCreateWebhook(dir, { ...ship, version: "v2", conversion: true, spoke: ["v1"] });
    await runCreateWebhook(dir, {
      ...captain,
      version: "v1",
      conversion: true,
      spoke: ["v1alpha1", "v2"],
      force: true,
    });
    expect(crdRules()).toEqual([
      { ...granted, resourceNames: ["captains.crew.testproject.org", "ships.crew.testproject.org"] },
    ]);
  }, 60_000);

  it("uses the group's folders and patch names in a multigroup project", async () => {
    await threeVersions(true);
    await runCreateWebhook(dir, { ...captain, version: "v1", conversion: true, spoke: ["v1alpha1", "v2"] });
    expect(read("api/crew/v2/captain_conversion.ts")).toContain("defineSpoke(CaptainV1Kind, CaptainKind");
    expect(read("config/crd/kustomization.yaml")).toContain(
      "- path: patches/webhook_in_crew_captains.yaml\n",
    );
    expect(read("config/crd/patches/cainjection_in_crew_captains.yaml")).toContain(
      "name: captains.crew.testproject.org",
    );
    expect(read("internal/webhook/crew/v1/captain_conversion.test.ts")).toContain(
      'from "../../../../api/crew/v1/captain_conversion.js"',
    );
  }, 60_000);
});
