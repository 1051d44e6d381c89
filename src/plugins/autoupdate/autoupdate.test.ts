import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runAlphaGenerate } from "../../commands/alpha-generate.js";
import { runEdit } from "../../commands/edit.js";
import { runInit } from "../../commands/index.js";
import { AUTOUPDATE_PLUGIN_KEY, AUTOUPDATE_WORKFLOW } from "./index.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kbts-autoupdate-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (path: string, root = dir) => readFileSync(join(root, path), "utf8");
const project = (plugins?: string[]) =>
  runInit(dir, {
    domain: "example.com",
    repo: "example.com/fleet",
    projectName: "fleet",
    runtime: "registry",
    plugins,
  });

interface Workflow {
  permissions: Record<string, unknown>;
  on: { workflow_dispatch: null; schedule: { cron: string }[] };
  jobs: {
    "auto-update": {
      permissions: Record<string, string>;
      env: Record<string, string>;
      steps: { name: string; uses?: string; run?: string; with?: Record<string, unknown> }[];
    };
  };
}
const workflow = (root = dir) => parse(read(AUTOUPDATE_WORKFLOW, root)) as Workflow;

function expectAutoUpdateWorkflow(w: Workflow): void {
  expect(w.permissions).toEqual({});
  expect(w.on.schedule).toEqual([{ cron: "0 0 * * 2" }]);
  expect(w.on).toHaveProperty("workflow_dispatch");
  const job = w.jobs["auto-update"];
  expect(job.permissions).toEqual({ contents: "write", issues: "write" });
  expect(job.env.GH_TOKEN).toMatch(/^\$\{\{ secrets\.GITHUB_TOKEN \}\}$/);
  const runs = job.steps.map((s) => s.run ?? "").join("\n");
  expect(job.steps.find((s) => s.uses?.startsWith("actions/checkout@"))?.with?.["fetch-depth"]).toBe(0);
  expect(runs).toContain("npm install --global kbts@latest");
  expect(runs).toContain("gh auth setup-git");
  expect(runs).toMatch(
    /kbts alpha update \\\n\s+--force \\\n\s+--push \\\n\s+--restore-path \.github\/workflows \\\n\s+--open-gh-issue/,
  );
}

describe("autoupdate/v1-alpha", () => {
  it("kbts edit --plugins autoupdate/v1-alpha writes the weekly alpha update workflow and records the plugin", async () => {
    await project();
    const result = await runEdit(dir, { plugins: ["autoupdate/v1-alpha"] });
    expect(result.written).toEqual([AUTOUPDATE_WORKFLOW, "PROJECT"].sort());
    expect(result.next).toContain("kbts alpha update every Tuesday");
    expectAutoUpdateWorkflow(workflow());
    const config = parse(read("PROJECT"));
    expect(config.plugins).toEqual({ [AUTOUPDATE_PLUGIN_KEY]: {} });
    expect(read("PROJECT")).toContain(`  ${AUTOUPDATE_PLUGIN_KEY}: {}\n`);
  });

  it("kbts init --plugins autoupdate/v1-alpha writes it with the project", async () => {
    await project(["autoupdate/v1-alpha"]);
    expectAutoUpdateWorkflow(workflow());
    const config = parse(read("PROJECT"));
    expect(config.layout).toEqual(["typescript.kbts.dev/v1", AUTOUPDATE_PLUGIN_KEY]);
    expect(config.plugins).toEqual({ [AUTOUPDATE_PLUGIN_KEY]: {} });
  });

  it("keeps a workflow the user edited unless --force, and alpha generate replays the plugin", async () => {
    await project();
    await runEdit(dir, { plugins: ["autoupdate/v1-alpha"] });
    const mine = read(AUTOUPDATE_WORKFLOW).replace("--open-gh-issue", "--open-gh-issue --show-commits");
    writeFileSync(join(dir, AUTOUPDATE_WORKFLOW), mine);
    const again = await runEdit(dir, { plugins: ["autoupdate/v1-alpha"] });
    expect(again.next).toContain("kept (--force writes it again)");
    expect(read(AUTOUPDATE_WORKFLOW)).toBe(mine);
    await runEdit(dir, { plugins: ["autoupdate/v1-alpha"], force: true });
    expectAutoUpdateWorkflow(workflow());
    const out = join(dir, "regenerated");
    await runAlphaGenerate(dir, { inputDir: ".", outputDir: out });
    expect(read(AUTOUPDATE_WORKFLOW, out)).toBe(read(AUTOUPDATE_WORKFLOW));
    expect(parse(read("PROJECT", out)).plugins).toEqual({ [AUTOUPDATE_PLUGIN_KEY]: {} });
  });

  it("refuses a project whose PROJECT does not say which kbts made it", async () => {
    await project();
    writeFileSync(join(dir, "PROJECT"), read("PROJECT").replace(/^cliVersion: .*\n/m, ""));
    await expect(runEdit(dir, { plugins: ["autoupdate/v1-alpha"] })).rejects.toThrow(
      /PROJECT has no cliVersion/,
    );
  });
});
