/**
 * Issue 33, items 4 and 5, end to end: a project whose Memcached has two controllers (`create api
 * --controller-name memcached-audit`) and admission webhooks at custom paths (`create webhook
 * --defaulting-path --validation-path`), and whose external kind (cert-manager's Certificate, made by
 * `create api --external-api-path`) has a defaulting webhook of its own at a custom path. Installed
 * with an npm cache of its own, type-checked (scaffolded tests included), linted, `make manifests`
 * run and built; its manager then runs against a local control plane that calls its webhooks where
 * the markers say, and both controllers reconcile the same object.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCreateApi, runCreateWebhook, runInit } from "../src/commands/index.js";
import { eventually } from "./support/eventually.js";
import { freePort } from "./support/free-port.js";
import { installDependencies } from "./support/installs.js";
import { runKubectl } from "./support/kubectl.js";

const CRD = new URL("../testdata/external-crds/cert-manager.io_certificates.yaml", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "kbts-e2e-named-"));
const project = join(work, "twin");
const DEFAULTED = "e2e.kbts.dev/defaulted-at";
let manager: ChildProcess | undefined;
let managerOutput = "";
let env: Environment | undefined;

const kubectl = (args: string[], input?: string) => runKubectl(env?.kubeconfigPath ?? "", args, input);
const run = async (what: string, command: string, args: string[]) => {
  const result = await execa(command, args, { cwd: project, reject: false, all: true });
  if (result.exitCode !== 0) throw new Error(`${what} failed:\n${result.all}`);
  return result.all;
};

/** What a user writes at a scaffolded TODO (the line must be there once). */
function fillIn(file: string, todo: string, code: string): void {
  const path = join(project, file);
  const text = readFileSync(path, "utf8");
  if (text.split(todo).length !== 2) throw new Error(`${file} does not have "${todo}" once`);
  writeFileSync(path, text.replace(todo, code));
}

/** Each controller marks the object with its own annotation, once, and goes on with the updated object. */
function markBy(file: string, controller: string): void {
  fillIn(
    file,
    "// TODO(user): your logic here",
    `if (memcached.metadata?.annotations?.["e2e.kbts.dev/${controller}"] === undefined) {
      memcached.metadata = {
        ...memcached.metadata,
        annotations: { ...memcached.metadata?.annotations, "e2e.kbts.dev/${controller}": "reconciled" },
      };
      memcached = await this.client.update(MemcachedKind, memcached);
    }`,
  );
}

/** A defaulter that labels the object with the path the API server called it at. */
function labelAt(file: string, variable: string, path: string): void {
  fillIn(
    file,
    "// TODO(user): fill in your defaulting logic.",
    `${variable}.metadata = { ...${variable}.metadata, labels: { ...${variable}.metadata?.labels, "${DEFAULTED}": "${path.slice(1)}" } };`,
  );
}

beforeAll(async () => {
  mkdirSync(join(project, "hack"), { recursive: true });
  await runInit(project, { domain: "example.com", repo: "example.com/twin" });
  copyFileSync(CRD, join(project, "hack/certificates.yaml"));
  const memcached = { group: "cache", version: "v1alpha1", kind: "Memcached" };
  await runCreateApi(project, memcached);
  await runCreateApi(project, { ...memcached, resource: false, controllerName: "memcached-audit" });
  await runCreateWebhook(project, {
    ...memcached,
    defaulting: true,
    programmaticValidation: true,
    defaultingPath: "/default-memcached",
    validationPath: "/check-memcached",
  });
  const certificate = { group: "cert-manager", version: "v1", kind: "Certificate" };
  await runCreateApi(project, {
    ...certificate,
    resource: false,
    externalApiPath: "hack/certificates.yaml",
    externalApiDomain: "io",
  });
  await runCreateWebhook(project, {
    ...certificate,
    defaulting: true,
    defaultingPath: "/default-certificate",
  });

  markBy("internal/controller/memcached_controller.ts", "memcached");
  markBy("internal/controller/memcached_audit_controller.ts", "memcached-audit");
  labelAt("internal/webhook/v1alpha1/memcached_webhook.ts", "memcached", "/default-memcached");
  labelAt("internal/webhook/v1/certificate_webhook.ts", "certificate", "/default-certificate");
  fillIn(
    "internal/webhook/v1alpha1/memcached_webhook.ts",
    "// TODO(user): fill in your validation logic upon object creation.",
    'if (memcached.metadata?.name?.startsWith("forbidden")) throw new Error("names starting with forbidden are refused");',
  );

  const install = await installDependencies(project);
  if (install.exitCode !== 0) throw new Error(`npm install failed:\n${install.all}`);
  await run("biome format", "npx", ["--no-install", "biome", "format", "--write", "internal"]);
  await run("make manifests", "make", ["manifests"]);
  // One compile for both: the type check of everything, the scaffolded tests included, and dist/.
  await run("the build (tests type-checked too)", "npx", [
    "--no-install",
    "tsc",
    "-p",
    "tsconfig.json",
    "--noEmit",
    "false",
  ]);
}, 300_000);

afterAll(async () => {
  if (manager && manager.exitCode === null) manager.kill("SIGKILL");
  await env?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("two controllers of one kind, and webhooks at custom paths", () => {
  it("lint clean as scaffolded (and compile, scaffolded tests included: beforeAll built them)", async () => {
    await run("biome check", "npx", ["--no-install", "biome", "check", "."]);
  }, 120_000);

  it("make manifests puts the custom paths in the webhook configurations", () => {
    const manifests = readFileSync(join(project, "config/webhook/manifests.yaml"), "utf8");
    for (const path of ["/default-memcached", "/check-memcached", "/default-certificate"]) {
      expect(manifests).toContain(`      path: ${path}\n`);
    }
    expect(manifests).toContain("  - cert-manager.io\n");
  });

  it("the API server calls each webhook at its path, and both controllers reconcile", async () => {
    env = await startEnvironment({
      crdDirectoryPaths: [join(project, "config/crd/bases"), CRD],
      webhookInstallOptions: { paths: [join(project, "config/webhook")] },
    });
    const serving = env.webhookInstallOptions;
    if (!serving) throw new Error("envtest installed no webhook serving options");
    const healthPort = await freePort();
    manager = spawn(
      "node",
      [
        "dist/cmd/main.js",
        `--webhook-port=${serving.localServingPort}`,
        `--webhook-cert-path=${serving.localServingCertDir}`,
        `--metrics-bind-address=127.0.0.1:${await freePort()}`,
        "--metrics-secure=false",
        `--health-probe-bind-address=127.0.0.1:${healthPort}`,
        "--zap-devel=false",
      ],
      {
        cwd: project,
        env: { ...process.env, KUBECONFIG: env.kubeconfigPath },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const append = (d: Buffer) => {
      managerOutput += d.toString();
    };
    manager.stdout?.on("data", append);
    manager.stderr?.on("data", append);
    await eventually("the manager to be ready", async () => {
      if (manager?.exitCode !== null) throw new Error(`the manager exited:\n${managerOutput}`);
      const res = await fetch(`http://127.0.0.1:${healthPort}/readyz`);
      return res.ok ? true : undefined;
    });

    const created = await kubectl(
      ["apply", "-f", "-"],
      `apiVersion: cache.example.com/v1alpha1
kind: Memcached
metadata:
  name: twin
  namespace: default
spec: {}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: web-tls
  namespace: default
spec:
  secretName: web-tls
  issuerRef: { name: ca }
  dnsNames: [web.example.com]
`,
    );
    expect(created.exitCode, `${created.all}\n${managerOutput.slice(-3000)}`).toBe(0);

    const labels = async (resource: string) => {
      const got = await kubectl(["get", resource, "-n", "default", "-o", "jsonpath={.metadata.labels}"]);
      return JSON.parse(got.stdout || "{}") as Record<string, string>;
    };
    expect((await labels("memcached/twin"))[DEFAULTED]).toBe("default-memcached");
    expect((await labels("certificate.cert-manager.io/web-tls"))[DEFAULTED]).toBe("default-certificate");

    const refused = await kubectl(
      ["create", "-f", "-"],
      "apiVersion: cache.example.com/v1alpha1\nkind: Memcached\nmetadata: { name: forbidden-one, namespace: default }\nspec: {}\n",
    );
    expect(refused.exitCode).not.toBe(0);
    expect(refused.all).toContain("names starting with forbidden are refused");

    const annotations = await eventually(
      "memcached/twin to be marked by both controllers",
      async () => {
        if (manager?.exitCode !== null) throw new Error(`the manager exited:\n${managerOutput}`);
        const got = await kubectl([
          "get",
          "memcached/twin",
          "-n",
          "default",
          "-o",
          "jsonpath={.metadata.annotations}",
        ]);
        const a = JSON.parse(got.stdout || "{}") as Record<string, string>;
        return a["e2e.kbts.dev/memcached"] && a["e2e.kbts.dev/memcached-audit"] ? a : undefined;
      },
      30_000,
    );
    expect(annotations).toMatchObject({
      "e2e.kbts.dev/memcached": "reconciled",
      "e2e.kbts.dev/memcached-audit": "reconciled",
    });
    // Each controller runs under its own name.
    expect(managerOutput).toContain('"controller":"memcached-audit"');
    expect(managerOutput).toContain('"controller":"memcached"');
  }, 120_000);
});
