/**
 * The scaffolded GPUBudget README is a test: its shell blocks (from `kbts init` to the Deny step) run
 * in order, as written, with `kbts` on PATH (a shim for bin/kbts.js), the local control plane's
 * kubectl, and npm caches that start empty. Background steps follow the convention of
 * e2e/support/readme-blocks.ts. The book's quick start (kbts' own README's old "Using kbts") runs in
 * e2e/docs-blocks.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO } from "./support/paths.js";
import { readmeSteps, runShellSteps, shellBlocks } from "./support/readme-blocks.js";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-readme-"));

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("README blocks as steps", () => {
  it("keeps heredocs and continuations with their command and reads the two conventions", () => {
    const md = [
      "# x",
      "```sh",
      'kbts envtest start   # in another terminal: a control plane; ready when it prints "export KUBECONFIG"',
      "kubectl apply -f - <<'YAML'",
      "kind: A",
      "YAML",
      "kubectl run g2 \\",
      "  --image=busybox",
      "# Error from server (Forbidden): denied ...",
      "```",
    ].join("\n");
    const steps = readmeSteps(shellBlocks(md));
    expect(steps.map((s) => s.line)).toEqual([3, 4, 7]);
    expect(steps[0]?.background).toEqual({ ready: "export KUBECONFIG" });
    expect(steps[1]?.command).toBe("kubectl apply -f - <<'YAML'\nkind: A\nYAML");
    expect(steps[2]?.expectFailure).toBe("Error from server (Forbidden): denied");
  });
});

describe.sequential("the GPUBudget README, run as written against a local control plane", () => {
  it("the GPUBudget README: kbts init to make run, then exceed and Deny", async () => {
    const readme = readFileSync(join(REPO, "testdata/project-gpubudget/README.md"), "utf8");
    const r = await runShellSteps("README.md", readme, join(work, "gpubudget-tutorial"));
    expect(r.steps.length).toBeGreaterThan(15);
    expect(r.exitCode, r.output.slice(-6000)).toBe(0);
    // MAX, ALLOCATED, QUEUED (empty: not a Queue budget), READY.
    expect(r.output).toMatch(/team-a-budget {3}4 {5}6 {20}False/);
    expect(r.output).toContain('admission webhook "vpod-v1.kb.io" denied the request');
  }, 900_000);
});
