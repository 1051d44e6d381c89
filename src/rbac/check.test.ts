import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { KbtsError } from "../errors.js";
import { runCreateApi, runInit } from "../plugins/commands.js";
import { checkRbac, formatRbacReport } from "./check.js";
import { runCheckRbac } from "./check-command.js";
import { scanUsages } from "./check-usage.js";

const testdata = (p: string) => fileURLToPath(new URL(`../../testdata/${p}`, import.meta.url));
const seeded = testdata("check-rbac/seeded");

describe("kbts manifests --check-rbac", () => {
  it("finds the seeded missing permission, the seeded unused one and the call it cannot follow", async () => {
    const report = await checkRbac({ root: seeded });
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

  it("exits 1 when a permission is missing; --strict also fails on unused grants", async () => {
    await expect(runCheckRbac({}, seeded)).rejects.toThrow(KbtsError);
    await expect(runCheckRbac({ strict: true }, testdata("project-gpubudget"))).resolves.toBeUndefined();
  }, 30_000);

  it.each(["project-gpubudget", "project-v1"])(
    "reports nothing on the scaffolded %s",
    async (project) => {
      const report = await checkRbac({ root: testdata(project) });
      expect(formatRbacReport(report)).toBe("");
    },
    30_000,
  );

  it("reports nothing on a fresh `create api` Memcached scaffold", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbts-check-rbac-"));
    try {
      await runInit(dir, { domain: "example.com", repo: "example.com/memcached", runtime: "registry" });
      await runCreateApi(dir, { group: "cache", version: "v1alpha1", kind: "Memcached" });
      const report = await checkRbac({ root: dir });
      expect(formatRbacReport(report)).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("says what to do outside a project", async () => {
    await expect(checkRbac({ root: testdata("check-rbac") })).rejects.toThrow(/no TypeScript under cmd/);
  });
});
