/**
 * API versions end to end (issue 15), on testdata/project-multiversion: Memcached in v1alpha1, v1 (the
 * conversion hub) and v2, installed with an npm cache of its own.
 * - Its own `make test` passes, the scaffolded round-trip tests (spoke → hub → spoke) included.
 * - On a local control plane, its manager (`make build`, then dist/cmd/main.js) serves /convert with
 *   the runtime; envtest points the CRD's conversion webhook at it (config/crd/patches). The cluster
 *   starts on the release before the hub (v1alpha1 stored): an object written as v1alpha1 reads as v1
 *   and v2, is written back as v2 and reads as v1alpha1 unchanged; `kubectl get` works for each version.
 * - A conversion function that throws is the API server's error, with the function's message, and is
 *   counted in the manager's metrics.
 * - After the upgrade to the hub as storage version, `make migrate-storage` rewrites the objects and
 *   leaves status.storedVersions [v1].
 * - Without cert-manager (`make deploy DEPLOY_CONFIG=config/certrotation` on a fresh control plane, the
 *   operator run on this host with its pod's identity and only the generated RBAC): the operator's own
 *   CA becomes the CRD's conversion caBundle, and the API server serves one object in every version
 *   through the deployed /convert.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Environment,
  type HostOperator,
  startEnvironment,
  startOperatorOnHost,
  webhookCABundles,
} from "@kbts/runtime/envtest";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments, stringify } from "yaml";
import { eventually } from "./support/eventually.js";
import { freePort } from "./support/free-port.js";
import { installGoldenProject } from "./support/golden-project.js";
import { ASSETS, KUBECTL, runKubectl } from "./support/kubectl.js";
import { runMake } from "./support/make.js";
import { metricValue } from "./support/operator.js";

const CRD = "memcacheds.cache.example.com";
const GROUP = "cache.example.com";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-conversion-"));
const project = join(work, "multiversion");
let env: Environment | undefined;
let manager: ChildProcess | undefined;
let operator: HostOperator | undefined;
let managerOutput = "";
let metricsPort = 0;

const make = (target: string, extra: Record<string, string> = {}) =>
  runMake(project, target, { KUBEBUILDER_ASSETS: ASSETS, KUBECTL, ...extra });
const kubectl = (args: string[], input?: string) => runKubectl(env?.kubeconfigPath ?? "", args, input);

interface Memcached {
  apiVersion: string;
  metadata: { name: string; labels?: Record<string, string>; resourceVersion?: string };
  spec: Record<string, unknown>;
}

/** The object as the API server serves it in `version` (kubectl names the version: memcacheds.v2.cache...). */
async function getAs(version: string, name: string): Promise<Memcached> {
  const out = await kubectl(["get", `memcacheds.${version}.${GROUP}`, name, "-n", "default", "-o", "json"]);
  expect(out.exitCode, out.all).toBe(0);
  return JSON.parse(out.stdout) as Memcached;
}

async function storedVersions(): Promise<string[]> {
  const out = await kubectl(["get", "crd", CRD, "-o", "jsonpath={.status.storedVersions}"]);
  expect(out.exitCode, out.all).toBe(0);
  return JSON.parse(out.stdout) as string[];
}

beforeAll(async () => {
  const install = await installGoldenProject("project-multiversion", project);
  expect(install.exitCode, install.all).toBe(0);
}, 600_000);

/** Stops the `make run`-style manager of the first tests (SIGTERM to its process group), and waits for it. */
async function stopManager(): Promise<void> {
  const m = manager;
  if (m?.pid === undefined || m.exitCode !== null || m.signalCode !== null) return;
  const exited = new Promise((resolve) => m.once("exit", resolve));
  try {
    process.kill(-m.pid, "SIGTERM");
  } catch {
    return; // already gone
  }
  await exited;
}

afterAll(async () => {
  await operator?.stop();
  await stopManager();
  await env?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe.sequential("testdata/project-multiversion", () => {
  it("passes its own make test, the round-trip tests of both spokes included", async () => {
    const test = await make("test");
    expect(test.exitCode, test.all).toBe(0);
    expect(test.all).toMatch(/memcached_conversion\.test\.ts \(2 tests\)/);
  }, 600_000);

  it("kustomizes config/default into a CRD converted by the webhook Service, its CA injected by cert-manager", async () => {
    const built = await execa(KUBECTL, ["kustomize", "config/default"], {
      cwd: project,
      reject: false,
      all: true,
    });
    expect(built.exitCode, built.all).toBe(0);
    const crd = built.stdout
      .split(/^---$/m)
      .map(
        (doc) =>
          parse(doc) as {
            kind?: string;
            metadata?: { annotations?: Record<string, string> };
            spec?: { conversion?: unknown };
          },
      )
      .find((doc) => doc?.kind === "CustomResourceDefinition");
    expect(crd?.metadata?.annotations?.["cert-manager.io/inject-ca-from"]).toBe(
      "multiversion-system/multiversion-serving-cert",
    );
    expect(crd?.spec?.conversion).toEqual({
      strategy: "Webhook",
      webhook: {
        clientConfig: {
          service: {
            name: "multiversion-webhook-service",
            namespace: "multiversion-system",
            path: "/convert",
          },
        },
        conversionReviewVersions: ["v1"],
      },
    });
  });

  it("serves v1alpha1, v1 and v2 of one object through the runtime's conversion webhook", async () => {
    const build = await make("build");
    expect(build.exitCode, build.all).toBe(0);

    // The release before the hub: the same CRD with v1alpha1 as its storage version.
    const crdFile = join(project, `config/crd/bases/${GROUP}_memcacheds.yaml`);
    const crd = parse(readFileSync(crdFile, "utf8")) as {
      spec: { versions: { name: string; storage: boolean }[] };
    };
    for (const v of crd.spec.versions) v.storage = v.name === "v1alpha1";
    const before = join(work, "crd-before-hub");
    mkdirSync(before);
    writeFileSync(join(before, `${GROUP}_memcacheds.yaml`), stringify(crd));
    env = await startEnvironment({
      crdDirectoryPaths: [before],
      webhookInstallOptions: { paths: [join(project, "config/crd/patches")] },
    });
    const serving = env.webhookInstallOptions;
    if (!serving) throw new Error("envtest installed no webhook serving options");
    metricsPort = await freePort();
    const healthPort = await freePort();
    manager = spawn(
      "node",
      [
        "dist/cmd/main.js",
        `--webhook-port=${serving.localServingPort}`,
        `--webhook-cert-path=${serving.localServingCertDir}`,
        `--metrics-bind-address=127.0.0.1:${metricsPort}`,
        "--metrics-secure=false",
        `--health-probe-bind-address=127.0.0.1:${healthPort}`,
      ],
      {
        cwd: project,
        detached: true,
        env: { ...process.env, KUBECONFIG: env.kubeconfigPath },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    manager.stdout?.on("data", (d: Buffer) => {
      managerOutput += d.toString();
    });
    manager.stderr?.on("data", (d: Buffer) => {
      managerOutput += d.toString();
    });
    await eventually(async () => {
      const res = await fetch(`http://127.0.0.1:${healthPort}/readyz`);
      if (!res.ok) throw new Error(`readyz ${res.status}\n${managerOutput.slice(-2000)}`);
    }, 60_000);

    // Written as v1alpha1 (the storage version here: no conversion on the way in).
    const applied = await kubectl([
      "apply",
      "-f",
      join(project, "config/samples/cache_v1alpha1_memcached.yaml"),
    ]);
    expect(applied.exitCode, applied.all).toBe(0);
    const original = await getAs("v1alpha1", "memcached-sample");
    expect(original.spec).toEqual({ replicas: 3, image: "memcached:1.6.26" });

    // Read as v1 and v2: the API server asks the manager's /convert.
    const hub = await eventually(() => getAs("v1", "memcached-sample"), 30_000);
    expect(hub.apiVersion).toBe(`${GROUP}/v1`);
    expect(hub.spec).toEqual({ size: 3, image: "memcached:1.6.26" });
    const v2 = await getAs("v2", "memcached-sample");
    expect(v2.apiVersion).toBe(`${GROUP}/v2`);
    expect(v2.spec).toEqual({ size: 3, image: { repository: "memcached", tag: "1.6.26" } });
    expect(v2.metadata.labels).toEqual(original.metadata.labels);

    // Written back as v2, unchanged: v1alpha1 reads exactly what was written first.
    const replaced = await kubectl(["replace", "-f", "-"], JSON.stringify(v2));
    expect(replaced.exitCode, replaced.all).toBe(0);
    const again = await getAs("v1alpha1", "memcached-sample");
    expect(again.spec).toEqual(original.spec);
    expect(again.metadata.labels).toEqual(original.metadata.labels);

    // A change made through v2 shows through v1alpha1.
    const patched = await kubectl([
      "patch",
      `memcacheds.v2.${GROUP}`,
      "memcached-sample",
      "-n",
      "default",
      "--type=merge",
      "-p",
      JSON.stringify({ spec: { size: 5, image: { repository: "memcached", tag: "1.6.27" } } }),
    ]);
    expect(patched.exitCode, patched.all).toBe(0);
    expect((await getAs("v1alpha1", "memcached-sample")).spec).toEqual({
      replicas: 5,
      image: "memcached:1.6.27",
    });

    // kubectl get of each version.
    for (const version of ["v1alpha1", "v1", "v2"]) {
      const table = await kubectl(["get", `memcacheds.${version}.${GROUP}`, "-n", "default"]);
      expect(table.exitCode, `${version}: ${table.all}`).toBe(0);
      expect(table.stdout).toMatch(/^NAME\s+AGE\n/);
      expect(table.stdout).toContain("memcached-sample");
    }
  }, 600_000);

  it("make migrate-storage moves the stored objects to the hub and leaves storedVersions [v1]", async () => {
    // The upgrade: the project's CRD, with v1 (the hub) stored from now on.
    const current = await kubectl(["get", "crd", CRD, "-o", "json"]);
    expect(current.exitCode, current.all).toBe(0);
    const crd = JSON.parse(current.stdout) as { spec: { versions: { name: string; storage: boolean }[] } };
    for (const v of crd.spec.versions) v.storage = v.name === "v1";
    const upgraded = await kubectl(["replace", "-f", "-"], JSON.stringify(crd));
    expect(upgraded.exitCode, upgraded.all).toBe(0);
    expect((await storedVersions()).sort()).toEqual(["v1", "v1alpha1"]);

    const migrate = await make("migrate-storage", { KUBECONFIG: env?.kubeconfigPath ?? "" });
    expect(migrate.exitCode, migrate.all).toBe(0);
    expect(migrate.all).toContain(
      `${CRD}: 1 object(s) read, 1 rewritten in v1; status.storedVersions [v1alpha1, v1] -> [v1]`,
    );
    expect(await storedVersions()).toEqual(["v1"]);
    expect((await getAs("v1alpha1", "memcached-sample")).spec).toEqual({
      replicas: 5,
      image: "memcached:1.6.27",
    });
  }, 180_000);

  it("turns a conversion function that throws into the API server's error, and counts it", async () => {
    const pinned = {
      apiVersion: `${GROUP}/v1`,
      kind: "Memcached",
      metadata: { name: "pinned", namespace: "default" },
      spec: { size: 1, image: `memcached@sha256:${"0".repeat(64)}` },
    };
    const created = await kubectl(["create", "-f", "-"], JSON.stringify(pinned));
    expect(created.exitCode, created.all).toBe(0);
    const refused = await kubectl(["get", `memcacheds.v2.${GROUP}`, "pinned", "-n", "default", "-o", "json"]);
    expect(refused.exitCode).not.toBe(0);
    // The API server's words, then the runtime's (kind, object, versions), then the function's.
    expect(refused.all).toContain(
      "conversion webhook for cache.example.com/v1, Kind=Memcached failed: converting Memcached.cache.example.com default/pinned from v1 to v2:",
    );
    expect(refused.all).toContain("is pinned by digest, which v2 cannot hold: use a tag");
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const errors = metricValue(metrics, "controller_runtime_conversion_webhook_conversion_errors_total", {
      group_kind: "Memcached.cache.example.com",
      from_version: "v1",
      to_version: "v2",
    });
    expect(
      errors ?? 0,
      metrics
        .split("\n")
        .filter((l) => l.includes("conversion"))
        .join("\n"),
    ).toBeGreaterThan(0);
    const deleted = await kubectl(["delete", `memcacheds.v1.${GROUP}`, "pinned", "-n", "default"]);
    expect(deleted.exitCode, deleted.all).toBe(0);
  }, 120_000);
});

describe.sequential("without cert-manager: make deploy DEPLOY_CONFIG=config/certrotation", () => {
  const NS = "multiversion-system";
  const DEPLOY = { DEPLOY_CONFIG: "config/certrotation" };

  it("the operator's own CA is the CRD's conversion caBundle, and every version is served through it", async () => {
    // A cluster of its own: no envtest URL in the CRD, only what make deploy applies.
    await stopManager();
    await env?.stop();
    env = await startEnvironment({ kubeconfigPath: join(work, "kubeconfig-certrotation") });
    const kubeconfig = env.kubeconfigPath;
    // The production build, what the Deployment's command runs (node dist/manager/manager.mjs).
    const bundle = await make("build-bundle");
    expect(bundle.exitCode, bundle.all).toBe(0);
    const deployed = await make("deploy", { ...DEPLOY, KUBECONFIG: kubeconfig });
    expect(deployed.exitCode, deployed.all).toBe(0);
    const rendered = await kubectl(["kustomize", join(project, "config/certrotation")]);
    expect(rendered.exitCode, rendered.all).toBe(0);
    const rotationRole = parseAllDocuments(rendered.stdout)
      .map((d) => d.toJS() as { kind: string; metadata: { name: string }; rules?: object[] })
      .find((o) => o.kind === "ClusterRole" && o.metadata.name === "multiversion-webhook-cert-rotation");
    expect(rotationRole?.rules).toContainEqual({
      apiGroups: ["apiextensions.k8s.io"],
      resources: ["customresourcedefinitions"],
      resourceNames: [CRD],
      verbs: ["get", "update"],
    });

    operator = await startOperatorOnHost({
      kubeconfig,
      namespace: NS,
      deployment: "multiversion-controller-manager",
      cwd: project,
      args: ["--zap-devel=false"],
    });
    const op = operator;
    await eventually(async () => {
      const bundles = await webhookCABundles(kubeconfig, rendered.stdout);
      expect(bundles.checked).toEqual([`CustomResourceDefinition ${CRD}`]);
      expect(bundles.missing, op.output().slice(-4000)).toEqual([]);
    }, 60_000);
    const secretCA = await kubectl([
      "get",
      "secret",
      "webhook-server-cert",
      "-n",
      NS,
      "-o",
      "jsonpath={.data.ca\\.crt}",
    ]);
    const crdCA = await kubectl([
      "get",
      "crd",
      CRD,
      "-o",
      "jsonpath={.spec.conversion.webhook.clientConfig.caBundle}",
    ]);
    expect(crdCA.stdout).not.toBe("");
    expect(crdCA.stdout).toBe(secretCA.stdout);

    // Written as v1alpha1 (stored as v1, the hub): the API server calls the deployed /convert on the way
    // in and on every read of another version, trusting only the injected CA.
    const applied = await kubectl([
      "apply",
      "-f",
      join(project, "config/samples/cache_v1alpha1_memcached.yaml"),
    ]);
    expect(applied.exitCode, `${applied.all}\n${op.output().slice(-4000)}`).toBe(0);
    expect((await getAs("v1alpha1", "memcached-sample")).spec).toEqual({
      replicas: 3,
      image: "memcached:1.6.26",
    });
    expect((await getAs("v1", "memcached-sample")).spec).toEqual({ size: 3, image: "memcached:1.6.26" });
    expect((await getAs("v2", "memcached-sample")).spec).toEqual({
      size: 3,
      image: { repository: "memcached", tag: "1.6.26" },
    });
    expect(op.output()).toContain("conversion webhook caBundle injected");
    expect(op.output()).not.toMatch(/forbidden/i);
    await op.stop();
  }, 240_000);
});
