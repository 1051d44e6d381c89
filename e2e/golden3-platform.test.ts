/**
 * testdata/project-platform, the third golden project (a namespaced operator with its own CRD, a
 * controller for apps/v1 Deployment, one for cert-manager's Certificate from a CRD file, the Helm
 * chart and the Grafana dashboards), passes its own `make test`: make manifests, generate and fmt,
 * the type check, and each controller's test against a local control plane. What those make targets
 * write is what the golden holds, so `make test` changes none of its files, and `make lint` passes.
 * Its chart passes the real helm's lint and renders the namespaced operator's RBAC and watch scope.
 * Its dependencies are linked to this checkout and installed with an npm cache of its own.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { readTree, TESTDATA } from "../testdata/golden.js";
import { installGoldenProject } from "./support/golden-project.js";
import { runMake } from "./support/make.js";
import { cachedHelm } from "./tools/helm.js";

const NAME = "project-platform";
const work = mkdtempSync(join(tmpdir(), "kbts-e2e-golden3-"));
const project = join(work, "platform");
const make = (target: string) => runMake(project, target);
const helm = (args: string[]) =>
  execa(cachedHelm(), args, {
    cwd: project,
    reject: false,
    all: true,
    env: {
      HELM_CACHE_HOME: join(work, "helm/cache"),
      HELM_CONFIG_HOME: join(work, "helm/config"),
      HELM_DATA_HOME: join(work, "helm/data"),
    },
  });

interface Rendered {
  kind: string;
  metadata: { name: string; namespace?: string };
  spec?: {
    template?: {
      spec?: { containers?: { name: string; env?: { name: string; valueFrom?: unknown }[] }[] };
    };
  };
}

/** The project's files, but the two the link to this checkout and npm install rewrite. */
function sources(dir: string): Map<string, string> {
  const tree = readTree(dir);
  tree.delete("package.json");
  tree.delete("package-lock.json");
  return tree;
}

beforeAll(async () => {
  const install = await installGoldenProject(NAME, project);
  expect(install.exitCode, install.all).toBe(0);
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe.sequential(`testdata/${NAME}`, () => {
  it("passes its own make test: every controller's test on a local control plane", async () => {
    const test = await make("test");
    expect(test.exitCode, test.all).toBe(0);
    for (const file of ["tenant", "deployment", "certificate"]) {
      expect(test.all).toMatch(
        new RegExp(`internal/controller/${file}_controller\\.test\\.ts \\(\\d+ tests?\\)`),
      );
    }
    expect(test.all).not.toMatch(/\d+ (failed|skipped)/);
  });

  it("make test's manifests, generate and fmt rewrite none of the golden's files", () => {
    const after = sources(project);
    const golden = sources(join(TESTDATA, NAME));
    expect([...after.keys()]).toEqual([...golden.keys()]);
    for (const [path, content] of after) expect(content, path).toBe(golden.get(path));
  });

  it("its chart passes helm lint --strict and renders a Role, a RoleBinding and WATCH_NAMESPACE in the release's namespace", async () => {
    const lint = await helm(["lint", "dist/chart", "--strict"]);
    expect(lint.exitCode, lint.all).toBe(0);
    const rendered = await helm(["template", "platform", "dist/chart", "--namespace", "tenants"]);
    expect(rendered.exitCode, rendered.all).toBe(0);
    const objects = parseAllDocuments(rendered.stdout)
      .map((d) => d.toJS() as Rendered | null)
      .filter((o): o is Rendered => o !== null);
    const named = (kind: string, suffix: string) =>
      objects.filter((o) => o.kind === kind && o.metadata.name.endsWith(suffix));
    expect(named("Role", "manager-role").map((o) => o.metadata.namespace)).toEqual(["tenants"]);
    expect(named("RoleBinding", "manager-rolebinding").map((o) => o.metadata.namespace)).toEqual(["tenants"]);
    expect(named("ClusterRole", "manager-role")).toEqual([]);
    const [manager] = named("Deployment", "controller-manager");
    const env = manager?.spec?.template?.spec?.containers?.find((c) => c.name === "manager")?.env;
    expect(env?.find((e) => e.name === "WATCH_NAMESPACE")?.valueFrom).toEqual({
      fieldRef: { fieldPath: "metadata.namespace" },
    });
  });

  it("make lint passes (biome, and kbts lint's unawaited-promise check)", async () => {
    const lint = await make("lint");
    expect(lint.exitCode, lint.all).toBe(0);
  });
});
