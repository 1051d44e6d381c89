/**
 * One pluralizer: every place `create api` and `manifests` name a resource (PROJECT, RBAC markers,
 * role files, the CRD kustomization, zz_generated.kinds.ts, the CRD and role.yaml) agrees with
 * controller-gen's plural for the kind. The table is re-derived from the real controller-gen in
 * e2e/plurals.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IRREGULAR_PLURALS } from "../../testdata/plurals/kinds.js";
import { runCreateApi, runInit } from "../commands/index.js";
import { pluralize } from "../crd/plural.js";
import { generateManifests } from "../manifests/generate.js";

const kinds = Object.entries(IRREGULAR_PLURALS);
const group = "names";
const qualified = `${group}.example.com`;
let dir: string;
let manifests: Map<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kbts-plurals-"));
  await runInit(dir, { domain: "example.com", repo: "example.com/plurals", runtime: "registry" });
  for (const [kind] of kinds) await runCreateApi(dir, { group, version: "v1", kind });
  manifests = (await generateManifests({ root: dir })).files;
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (path: string) => readFileSync(join(dir, path), "utf8");

describe.each(kinds)("%s", (kind, plural) => {
  const lower = kind.toLowerCase();

  it(`pluralizes to ${plural}`, () => expect(pluralize(kind)).toBe(plural));

  it("is named by its plural in the CRD", () => {
    const crd = manifests.get(`config/crd/bases/${qualified}_${plural}.yaml`);
    expect(crd, [...manifests.keys()].join("\n")).toBeDefined();
    expect(crd).toContain(`  name: ${plural}.${qualified}\n`);
    expect(crd).toContain(`    plural: ${plural}\n`);
    expect(crd).toContain(`    kind: ${kind}\n`);
  });

  it("is named by its plural in the CRD kustomization", () =>
    expect(read("config/crd/kustomization.yaml")).toContain(`- bases/${qualified}_${plural}.yaml\n`));

  it("is named by its plural in the controller's RBAC markers and the generated role", () => {
    const controller = read(`internal/controller/${lower}_controller.ts`);
    for (const resource of [plural, `${plural}/status`])
      expect(controller).toContain(`// +kubebuilder:rbac:groups=${qualified},resources=${resource},`);
    const role = manifests.get("config/rbac/role.yaml") ?? "";
    for (const resource of [plural, `${plural}/status`])
      expect(role).toMatch(new RegExp(`^  - ${resource.replace("/", "\\/")}$`, "m"));
  });

  it("is named by its plural in its admin, editor and viewer roles", () => {
    for (const role of ["admin", "editor", "viewer"]) {
      const text = read(`config/rbac/${lower}_${role}_role.yaml`);
      expect(text).toContain(`  - ${plural}\n`);
      expect(text).toContain(`  - ${plural}/status\n`);
    }
  });

  it("is named by its plural in zz_generated.kinds.ts, and PROJECT records no irregular plural", () => {
    expect(read("api/v1/zz_generated.kinds.ts")).toMatch(
      new RegExp(`kind: "${kind}",\\n(?:.*\\n)*?  plural: "${plural}",`),
    );
    expect(read("PROJECT")).not.toMatch(/^\s+plural:/m);
  });

  it("has a sample of its kind", () =>
    expect(read(`config/samples/${group}_v1_${lower}.yaml`)).toContain(`kind: ${kind}\n`));
});
