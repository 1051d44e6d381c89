/**
 * Kinds named like JavaScript globals (OpenShift's config.openshift.io/v1 Proxy; a Promise, Request,
 * Record or Map of anyone's) in a project made by the built CLI as a user makes one: its dependencies
 * install, and make manifests, generate, lint and test pass against a local control plane.
 * src/plugins/global-kinds.test.ts type-checks and lints every such name; these five cover each way
 * the scaffold names a global the kind shadows (globalThis.Promise, the runtime's Request as KbtsRequest,
 * globalThis.Record in types, an import Biome would call shadowing), and a webhook.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installDependencies } from "./support/installs.js";
import { runKbts } from "./support/kbts.js";
import { runMake } from "./support/make.js";

const KINDS = ["Proxy", "Promise", "Request", "Record", "Map"];
const work = mkdtempSync(join(tmpdir(), "kbts-e2e-global-kinds-"));
const project = join(work, "globals");
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function kbts(args: string[]) {
  const r = await runKbts(args, project);
  expect(r.exitCode, `kbts ${args.join(" ")}\n${r.all}`).toBe(0);
}

describe.sequential("a project whose kinds are named like JavaScript globals", () => {
  it("is scaffolded by the built kbts and its dependencies install", async () => {
    mkdirSync(project, { recursive: true });
    await kbts(["init", "--domain", "openshift.io", "--repo", "example.com/globals", "--skip-install"]);
    for (const kind of KINDS)
      await kbts(["create", "api", "--group", "config", "--version", "v1", "--kind", kind]);
    await kbts(
      ["create", "webhook", "--group", "config", "--version", "v1", "--kind", "Proxy"].concat([
        "--defaulting",
        "--programmatic-validation",
      ]),
    );
    const install = await installDependencies(project);
    expect(install.exitCode, install.all).toBe(0);
  }, 300_000);

  it("make manifests, generate and lint pass", async () => {
    for (const target of ["manifests", "generate", "lint"]) {
      const r = await runMake(project, target);
      expect(r.exitCode, `make ${target}\n${r.all}`).toBe(0);
    }
  }, 300_000);

  it("make test: every controller's and the webhook's tests pass on a local control plane", async () => {
    const r = await runMake(project, "test", { KUBEBUILDER_ASSETS: process.env.KUBEBUILDER_ASSETS ?? "" });
    expect(r.exitCode, r.all).toBe(0);
    expect(r.all).toMatch(/Tests\s+12 passed \(12\)/);
  }, 600_000);
});
