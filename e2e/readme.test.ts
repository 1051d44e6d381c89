/**
 * The READMEs are tests: the shell blocks of the scaffolded GPUBudget README (from `kbts init` to the
 * Deny step) and the "Using kbts" block of kbts' own README run in order, as written, with `kbts` on
 * PATH (a shim for bin/kbts.js), the local control plane's kubectl, and npm caches that start empty.
 * Background steps follow the convention of e2e/support/readme-blocks.ts.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { emptyNpmCache, npmEnv } from "./support/npm.js";
import { REPO } from "./support/paths.js";
import { readmeSteps, shellBlocks, stepsScript } from "./support/readme-blocks.js";

const ASSETS = process.env.KUBEBUILDER_ASSETS ?? "";
const work = mkdtempSync(join(tmpdir(), "kbts-e2e-readme-"));

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `kbts` resolves to this checkout's CLI, kubectl to the local control plane's; nothing else is set. */
function shellEnv(): Record<string, string> {
  const shims = join(work, "bin");
  mkdirSync(shims, { recursive: true });
  writeFileSync(
    join(shims, "kbts"),
    `#!/bin/sh\nexec node ${JSON.stringify(join(REPO, "bin/kbts.js"))} "$@"\n`,
  );
  chmodSync(join(shims, "kbts"), 0o755);
  const env: Record<string, string> = {
    ...npmEnv(emptyNpmCache()),
    PATH: [shims, ASSETS, process.env.PATH ?? ""].join(":"),
    HOME: process.env.HOME ?? work,
    KUBEBUILDER_ASSETS: ASSETS,
  };
  return env;
}

async function runReadme(file: string, markdown: string, cwd: string, section?: string) {
  const steps = readmeSteps(shellBlocks(markdown, section));
  mkdirSync(cwd, { recursive: true });
  const script = join(cwd, "..", `${section ?? "readme"}.sh`.replaceAll(" ", "-"));
  writeFileSync(script, stepsScript(steps, file));
  const r = await execa("bash", [script], {
    cwd,
    env: shellEnv(),
    extendEnv: false,
    all: true,
    reject: false,
  });
  return { steps, exitCode: r.exitCode, output: r.all ?? "" };
}

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

describe.sequential("the READMEs, run as written against a local control plane", () => {
  it("the GPUBudget README: kbts init to make run, then exceed and Deny", async () => {
    const readme = readFileSync(join(REPO, "testdata/project-gpubudget/README.md"), "utf8");
    const r = await runReadme("README.md", readme, join(work, "gpubudget-tutorial"));
    expect(r.steps.length).toBeGreaterThan(15);
    expect(r.exitCode, r.output.slice(-6000)).toBe(0);
    expect(r.output).toContain("team-a-budget   4     6           False");
    expect(r.output).toContain('admission webhook "vpod-v1.kb.io" denied the request');
  }, 900_000);

  it('kbts\' README, "Using kbts": init, create api and webhook, test, a local control plane, make run', async () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const r = await runReadme("README.md", readme, join(work, "memcached"), "Using kbts");
    expect(r.exitCode, r.output.slice(-6000)).toBe(0);
    expect(r.output).toMatch(/==> README\.md:\d+: make run/);
  }, 900_000);

  it("a README missing a line the flow needs fails at the step that needed it", async () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const mutated = readme.replace(/^kbts init .*\n/m, "");
    expect(mutated).not.toBe(readme);
    const r = await runReadme("README.md", mutated, join(work, "memcached-mutated"), "Using kbts");
    expect(r.exitCode).not.toBe(0);
    const lastStep = [...r.output.matchAll(/^==> (.*)$/gm)].pop()?.[1];
    expect(lastStep).toMatch(/README\.md:\d+: kbts create api/);
    expect(r.output).toMatch(/PROJECT/);
  }, 300_000);
});
