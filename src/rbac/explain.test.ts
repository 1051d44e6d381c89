import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { registry } from "../manifests/generators.js";
import { explainRbac, formatExplanation } from "./explain.js";

const golden = (name: string) => new URL(`../../testdata/${name}`, import.meta.url).pathname;
const CONTROLLER = "internal/controller/gpubudget_controller.ts";
const explain = async (root: string) => formatExplanation(await explainRbac({ root, markers: registry }));

// Each test reads a golden project's code with the type checker (seconds on a busy machine).
describe("kbts manifests --explain-rbac", { timeout: 60_000 }, () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("lists the GPUBudget operator's grants with the code that uses them and the guard on namespaces", async () => {
    const out = await explain(golden("project-gpubudget"));
    const lines = out.split("\n");
    const marker = lines.findIndex((l) =>
      l.endsWith(': +kubebuilder:rbac:groups="",resources=namespaces,verbs=get;list;watch;patch'),
    );
    expect(lines[marker]).toMatch(new RegExp(`^${CONTROLLER}:\\d+:\\d+: `));
    const patch = lines.slice(marker + 1).find((l) => l.startsWith("  patch namespaces:"));
    expect(patch).toMatch(
      new RegExp(
        `^  patch namespaces: used by client\\.patch\\(Namespace\\) at ${CONTROLLER}:\\d+:\\d+, this\\.client\\.patch\\(Namespace\\) at ${CONTROLLER}:\\d+:\\d+$`,
      ),
    );
    expect(lines[lines.indexOf(patch as string) + 1]).toMatch(
      new RegExp(
        `^ {4}guarded: may change only metadata\\.labels\\['capacity\\.lab\\.example\\.com/gpubudget-enforcement'\\], metadata\\.labels\\['capacity\\.lab\\.example\\.com/gpubudget-full'\\] \\(${CONTROLLER}:\\d+:\\d+\\)$`,
      ),
    );
    expect(out).toMatch(
      /^ {2}update gpubudgets\/status\.capacity\.lab\.example\.com: used by client\.status\(\)\.update\(GPUBudgetKind\) at /m,
    );
    // DRA: the claims a budget counts are read through the client and the cache.
    expect(out).toMatch(
      /^ {2}list resourceclaims\.resource\.k8s\.io: used by client\.list\(ResourceClaimKind\) at /m,
    );
    // A Queue budget's release removes its gate from a pod, a GPU-hour budget adds and removes its
    // finalizer: guarded to the pod's spec and finalizers.
    expect(out).toMatch(
      /^ {2}patch pods: used by client\.patch\(Pod\) at internal\/ledger\/ledger\.ts:\d+:\d+, this\.options\.client\.patch\(Pod\) at internal\/queue\/queue\.ts:\d+:\d+\n {4}guarded: may change only spec, metadata\.finalizers \(/m,
    );
    // A cohort's reclaim evicts borrowed pods through the Eviction API.
    expect(out).toMatch(
      /^ {2}create pods\/eviction: used by eviction\.create\(Pod\) at internal\/queue\/queue\.ts:\d+:\d+$/m,
    );
    expect(out).not.toContain("warning:");
    expect(lines.at(-2)).toBe("explain-rbac: 9 markers, 20 permissions, 0 warnings");
  });

  it("warns of a cluster-wide write on a core kind that no guard narrows", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbts-explain-"));
    dirs.push(dir);
    cpSync(golden("project-gpubudget"), dir, { recursive: true, filter: (p) => !p.includes("node_modules") });
    const file = join(dir, CONTROLLER);
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.replace(/^\/\/ \+kbts:guard:groups="",resources=namespaces.*\n/m, ""));
    const out = await explain(dir);
    expect(out).toContain(
      "  patch namespaces: used by client.patch(Namespace) at internal/controller/gpubudget_controller.ts:",
    );
    expect(out).toContain(
      "    warning: cluster-wide patch on every namespaces and no +kbts:guard narrows it: add one naming the fields the code changes\n",
    );
    expect(out).toMatch(/1 warnings\n$/);
  });

  it("counts a guard on patch as narrowing update too: both reach the API server as UPDATE", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbts-explain-"));
    dirs.push(dir);
    cpSync(golden("project-gpubudget"), dir, { recursive: true, filter: (p) => !p.includes("node_modules") });
    const file = join(dir, CONTROLLER);
    const text = readFileSync(file, "utf8");
    const grant = '+kubebuilder:rbac:groups="",resources=namespaces,verbs=get;list;watch;patch';
    expect(text).toContain(grant);
    writeFileSync(file, text.replace(grant, `${grant};update`));
    const lines = (await explain(dir)).split("\n");
    const update = lines.findIndex((l) => l.startsWith("  update namespaces:"));
    expect(lines[update + 1]).toMatch(/^ {4}guarded: may change only metadata\.labels\[/);
    expect(lines.join("\n")).not.toContain("warning:");
  });

  it("says which grants of the CronTab project no code uses", async () => {
    const out = await explain(golden("project-crontab"));
    expect(out).toMatch(
      /^ {2}update crontabs\.stable\.example\.com: used by this\.client\.update\(CronTabKind\) at internal\/controller\/crontab_controller\.ts:\d+:\d+/m,
    );
    expect(out).toContain("  delete crontabs.stable.example.com: unused: no code uses it\n");
    expect(out).toMatch(/explain-rbac: 3 markers, 11 permissions, 0 warnings\n$/);
  });
});
