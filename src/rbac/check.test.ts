import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCreateApi, runInit } from "../commands/index.js";
import { KbtsError } from "../errors.js";
import { registry } from "../manifests/generators.js";
import { checkRbac, formatRbacReport } from "./check.js";
import { runCheckRbac } from "./check-command.js";
import { scanUsages } from "./check-usage.js";

const testdata = (p: string) => fileURLToPath(new URL(`../../testdata/${p}`, import.meta.url));
const seeded = testdata("check-rbac");

describe("kbts manifests --check-rbac", () => {
  it("finds the seeded missing permission, the seeded unused one and the call it cannot follow", async () => {
    const report = await checkRbac({ root: seeded, markers: registry });
    expect(formatRbacReport(report)).toBe(readFileSync(`${seeded}/expected.txt`, "utf8"));
  }, 30_000);

  it("follows descriptors to group/resource: builder, cached and uncached reads, status, events, owner references", async () => {
    const files = ["internal/controller/widget_controller.ts", "cmd/main.ts"].map((f) => `${seeded}/${f}`);
    const { usages } = await scanUsages(seeded, files);
    const used = new Set(usages.map((u) => `${u.verb} ${u.group}/${u.resource}`));
    expect([...used].sort()).toEqual(
      [
        // client.get (cached: an informer) and .for(WidgetKind)
        "get toys.example.com/widgets",
        "list toys.example.com/widgets",
        "watch toys.example.com/widgets",
        "update toys.example.com/widgets/status",
        // setControllerReference(widget, ...): the owner's finalizers
        "update toys.example.com/widgets/finalizers",
        // an uncached Reader (getAPIReader) gets, nothing more
        "get /secrets",
        // .owns(ConfigMap) and client.create(ConfigMap)
        "create /configmaps",
        "get /configmaps",
        "list /configmaps",
        "watch /configmaps",
        // the event recorder writes core/v1 Events
        "create /events",
        "patch /events",
      ].sort(),
    );
  }, 30_000);

  it("follows finalizers, owner references, apply, createOrUpdate, subresources, indexes, leases and Kind<T> parameters", async () => {
    const rules = testdata("check-rbac/rules");
    const { usages, unresolved } = await scanUsages(rules, [`${rules}/internal/controller/every_call.ts`]);
    expect(unresolved).toEqual([]);
    const used = (call: string) =>
      [
        ...new Set(
          usages.filter((u) => u.call.startsWith(call)).map((u) => `${u.verb} ${u.group}/${u.resource}`),
        ),
      ].sort();
    // client.get through a Kind<Widget> parameter: the type names the kind.
    expect(used("client.get(kind)")).toEqual([
      "get toys.example.com/widgets",
      "list toys.example.com/widgets",
      "watch toys.example.com/widgets",
    ]);
    expect(used("addFinalizer")).toEqual(["update toys.example.com/widgets/finalizers"]);
    expect(used("setOwnerReference")).toEqual([]);
    expect(used("client.status().patch")).toEqual(["patch toys.example.com/widgets/status"]);
    expect(used("client.apply")).toEqual([
      "create toys.example.com/widgets",
      "patch toys.example.com/widgets",
    ]);
    expect(used("createOrUpdate")).toEqual([
      "create apps/deployments",
      "get apps/deployments",
      "list apps/deployments",
      "update apps/deployments",
      "watch apps/deployments",
    ]);
    expect(used("scale.update")).toEqual(["update apps/deployments/scale"]);
    expect(used("client.get(kinds.configMaps)")).toEqual([
      "get /configmaps",
      "list /configmaps",
      "watch /configmaps",
    ]);
    expect(used("leaseLock")).toEqual([
      "create coordination.k8s.io/leases",
      "get coordination.k8s.io/leases",
      "update coordination.k8s.io/leases",
    ]);
    // Everything it uses is granted, and nothing more.
    expect(formatRbacReport(await checkRbac({ root: rules, markers: registry }))).toBe("");
  }, 30_000);

  it("exits 1 when a permission is missing; a scaffold with nothing unused passes even --strict", async () => {
    await expect(runCheckRbac({}, registry, seeded)).rejects.toThrow(KbtsError);
    await expect(
      runCheckRbac({ strict: true }, registry, testdata("project-gpubudget")),
    ).resolves.toBeUndefined();
  }, 30_000);

  it.each(["project-gpubudget", "project-v1"])(
    "reports nothing on the scaffolded %s",
    async (project) => {
      const report = await checkRbac({ root: testdata(project), markers: registry });
      expect(formatRbacReport(report)).toBe("");
    },
    30_000,
  );

  it("reports nothing on a fresh `create api` Memcached scaffold", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbts-check-rbac-"));
    try {
      await runInit(dir, { domain: "example.com", repo: "example.com/memcached", runtime: "registry" });
      await runCreateApi(dir, { group: "cache", version: "v1alpha1", kind: "Memcached" });
      const report = await checkRbac({ root: dir, markers: registry });
      expect(formatRbacReport(report)).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("says what to do outside a project", async () => {
    const empty = mkdtempSync(join(tmpdir(), "kbts-check-rbac-empty-"));
    try {
      await expect(checkRbac({ root: empty, markers: registry })).rejects.toThrow(/no TypeScript under cmd/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
