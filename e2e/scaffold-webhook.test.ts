/**
 * `kbts create webhook` end to end, from the built CLI: a defaulting + validating webhook for the
 * project's own kind and a validating webhook for core/v1 Pod, then `make manifests` (the markers
 * become config/webhook/manifests.yaml), `make test` (the scaffolded webhook and controller tests
 * pass) and `kubectl kustomize config/default` (the webhook, cert-manager and patch wiring builds).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCheckout } from "./support/build.js";
import { installDependencies } from "./support/installs.js";
import { runKbts } from "./support/kbts.js";
import { runMake } from "./support/make.js";

const ASSETS = process.env.KUBEBUILDER_ASSETS || "/tmp/envtest-bin";
const KUBECTL = join(ASSETS, "kubectl");

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-webhook-"));
const project = join(work, "memcached");

const kbts = (args: string[]) => runKbts(args, project);
const make = (target: string[]) =>
  runMake(project, target, { KUBEBUILDER_ASSETS: ASSETS, KUBECTL }, { ci: false });

beforeAll(async () => {
  await buildCheckout();
  mkdirSync(project, { recursive: true });
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.sequential("a scaffolded project with webhooks", () => {
  it("create webhook wires the project's kind and core Pods", async () => {
    for (const args of [
      ["init", "--domain", "example.com", "--repo", "example.com/memcached", "--skip-install"],
      ["create", "api", "--group", "cache", "--version", "v1alpha1", "--kind", "Memcached"],
      [
        "create",
        "webhook",
        "--group",
        "cache",
        "--version",
        "v1alpha1",
        "--kind",
        "Memcached",
        "--defaulting",
        "--programmatic-validation",
      ],
      [
        "create",
        "webhook",
        "--group",
        "core",
        "--version",
        "v1",
        "--kind",
        "Pod",
        "--programmatic-validation",
      ],
    ]) {
      const r = await kbts(args);
      expect(r.exitCode, `kbts ${args.join(" ")}\n${r.all}`).toBe(0);
    }
    const again = await kbts([
      "create",
      "webhook",
      "--group",
      "core",
      "--version",
      "v1",
      "--kind",
      "Pod",
      "--programmatic-validation",
    ]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain("webhook already exists");
  });

  it("the dependencies install, and make manifests turns the markers into webhook configurations", async () => {
    const install = await installDependencies(project);
    expect(install.exitCode, install.all).toBe(0);
    const manifests = await make(["manifests"]);
    expect(manifests.exitCode, manifests.all).toBe(0);
    const webhooks = readFileSync(join(project, "config/webhook/manifests.yaml"), "utf8");
    expect(webhooks).toContain("path: /mutate-cache-example-com-v1alpha1-memcached");
    expect(webhooks).toContain("path: /validate-cache-example-com-v1alpha1-memcached");
    expect(webhooks).toContain("path: /validate--v1-pod");
  });

  it("make test: the scaffolded webhook and controller tests pass", async () => {
    const test = await make(["test"]);
    expect(test.exitCode, test.all).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips vitest's colours
    const plain = test.all.replace(/\x1b\[[0-9;]*m/g, "");
    expect(plain).toMatch(/Test Files\s+3 passed/);
  });

  it("config/default builds with the webhook, cert-manager and manager patch wiring", async () => {
    const built = await execa(KUBECTL, ["kustomize", join(project, "config/default")], {
      reject: false,
      all: true,
    });
    expect(built.exitCode, built.all).toBe(0);
    expect(built.stdout).toContain("kind: ValidatingWebhookConfiguration");
    expect(built.stdout).toContain("kind: MutatingWebhookConfiguration");
    expect(built.stdout).toContain("cert-manager.io/inject-ca-from: memcached-system/memcached-serving-cert");
    expect(built.stdout).toContain("--webhook-cert-path=/tmp/k8s-webhook-server/serving-certs");
    expect(built.stdout).toContain("- memcached-webhook-service.memcached-system.svc");
  });
});
