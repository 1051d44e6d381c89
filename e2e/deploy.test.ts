/**
 * `make deploy` of the scaffolded GPUBudget operator on the local control plane, then the operator run as
 * a host process with exactly the identity its Deployment gives it: the ServiceAccount's token (from the
 * TokenRequest API), the cluster CA and KUBERNETES_SERVICE_HOST/PORT, no kubeconfig. No cert-manager and
 * no container engine exist here, so it is deployed with config/certrotation (the operator keeps its own
 * webhook certificate) and the webhook Service's endpoints point at this machine, as the endpoints
 * controller would point them at the pod. `make undeploy` then removes everything `make deploy` made.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { execa, type ResultPromise } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import {
  budgetManifest,
  buildProject,
  eventually,
  freePort,
  gpuPodManifest,
  run,
  scaffoldProject,
} from "./demo/lib.js";

const ASSETS = process.env.KUBEBUILDER_ASSETS ?? "";
const work = mkdtempSync(join(tmpdir(), "kbts-e2e-deploy-"));
const project = join(work, "gpubudget");
const NS = "gpubudget-system";
const SA = "gpubudget-controller-manager";
const DEPLOY = ["DEPLOY_CONFIG=config/certrotation"];

let env: Environment;
let makeEnv: Record<string, string>;
const operators: ResultPromise[] = [];

/** This machine's first non-loopback IPv4 address: what the webhook Service's endpoints point at. */
function hostAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  throw new Error("no non-loopback IPv4 address: the API server could not reach a webhook on this host");
}

const make = (args: string[], reject = true) => run("make", args, { cwd: project, env: makeEnv, reject });
const kubectl = (args: string[], input?: string) =>
  execa(join(ASSETS, "kubectl"), args, { env: makeEnv, input, all: true, reject: false });

async function kubectlOK(args: string[], input?: string): Promise<string> {
  const r = await kubectl(args, input);
  if (r.exitCode !== 0) throw new Error(`kubectl ${args.join(" ")}: ${r.all}`);
  return r.stdout;
}

/** The team-a budget's status as JSON text. */
const budgetStatus = () =>
  kubectlOK(["get", "gb", "team-a-budget", "-n", "team-a", "-o", "jsonpath={.status}"]);

interface Identity {
  dir: string;
  env: Record<string, string>;
}

/** The pod's service-account mount, made on the host: a TokenRequest token, the cluster CA, the namespace. */
async function podIdentity(): Promise<Identity> {
  const dir = mkdtempSync(join(work, "serviceaccount-"));
  const token = await kubectlOK(["create", "token", SA, "-n", NS, "--duration=1h"]);
  writeFileSync(join(dir, "token"), token.trim());
  writeFileSync(join(dir, "ca.crt"), env.config?.caData ?? "");
  writeFileSync(join(dir, "namespace"), NS);
  const api = new URL(env.apiServerURL);
  // Only what a container sees: no KUBECONFIG, an empty HOME (so no ~/.kube/config either).
  const home = mkdtempSync(join(work, "home-"));
  return {
    dir,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      KUBERNETES_SERVICE_HOST: api.hostname,
      KUBERNETES_SERVICE_PORT: api.port,
      KBTS_SERVICE_ACCOUNT_DIR: dir,
    },
  };
}

interface Running {
  process: ResultPromise;
  output: () => string;
  metricsPort: number;
  probePort: number;
}

/**
 * `node dist/cmd/main.js` with the Deployment's own args; only the ports and the certificate directory
 * move (this host is shared), and the webhook Service's endpoints are pointed at the webhook port.
 */
async function startOperator(identity: Identity): Promise<Running> {
  const deployment = JSON.parse(await kubectlOK(["get", "deployment", SA, "-n", NS, "-o", "json"])) as {
    spec: { template: { spec: { containers: { command: string[]; args: string[] }[] } } };
  };
  const container = deployment.spec.template.spec.containers[0];
  if (!container) throw new Error("the Deployment has no container");
  const [metricsPort, probePort, webhookPort] = [await freePort(), await freePort(), await freePort()];
  const certDir = mkdtempSync(join(work, "serving-certs-"));
  const args = container.args.map((a) =>
    a
      .replace(/^--metrics-bind-address=.*/, `--metrics-bind-address=:${metricsPort}`)
      .replace(/^--health-probe-bind-address=.*/, `--health-probe-bind-address=:${probePort}`)
      .replace(/^--webhook-cert-path=.*/, `--webhook-cert-path=${certDir}`),
  );
  await pointWebhookServiceAt(hostAddress(), webhookPort);
  const [command = "node", ...commandArgs] = container.command;
  const child = execa(
    command,
    [...commandArgs, ...args, `--webhook-port=${webhookPort}`, "--zap-devel=false"],
    {
      cwd: project,
      env: identity.env,
      extendEnv: false,
      all: true,
      reject: false,
      buffer: true,
    },
  );
  let out = "";
  child.all?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  operators.push(child);
  return { process: child, output: () => out, metricsPort, probePort };
}

async function stopOperator(op: Running): Promise<void> {
  op.process.kill("SIGTERM");
  await op.process;
}

/** What the endpoints controller does for the operator's pod, with this host's address. */
async function pointWebhookServiceAt(ip: string, port: number): Promise<void> {
  const labels = { "kubernetes.io/service-name": "gpubudget-webhook-service" };
  const slice = {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: { name: "gpubudget-webhook-service-host", namespace: NS, labels },
    addressType: "IPv4",
    endpoints: [{ addresses: [ip], conditions: { ready: true } }],
    ports: [{ name: "", port, protocol: "TCP" }],
  };
  const endpoints = {
    apiVersion: "v1",
    kind: "Endpoints",
    metadata: { name: "gpubudget-webhook-service", namespace: NS },
    subsets: [{ addresses: [{ ip }], ports: [{ port, protocol: "TCP" }] }],
  };
  await kubectlOK(["apply", "--server-side", "--force-conflicts", "-f", "-"], JSON.stringify(slice));
  await kubectlOK(["apply", "--server-side", "--force-conflicts", "-f", "-"], JSON.stringify(endpoints));
}

function httpsGet(port: number, path: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        rejectUnauthorized: false, // the metrics server's certificate is self-signed (no cert-manager here)
        headers: token ? { authorization: `Bearer ${token}` } : {},
      },
      (res) => {
        let body = "";
        res.on("data", (c: Buffer) => {
          body += c.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** The objects `make deploy` applies: kind, namespace and name of each rendered document. */
async function renderedObjects(): Promise<{ kind: string; namespace?: string; name: string }[]> {
  const text = await kubectlOK(["kustomize", join(project, "config/certrotation")]);
  return parseAllDocuments(text)
    .map((d) => d.toJS() as { kind: string; metadata: { name: string; namespace?: string } })
    .filter(Boolean)
    .map((o) => ({ kind: o.kind, namespace: o.metadata.namespace, name: o.metadata.name }));
}

beforeAll(async () => {
  env = await startEnvironment({
    // Webhook calls go to the Service's endpoints (not its ClusterIP: there is no kube-proxy here).
    apiServerFlags: { "enable-aggregator-routing": "true" },
    kubeconfigPath: join(work, "kubeconfig"),
  });
  makeEnv = {
    KUBECONFIG: env.kubeconfigPath,
    KUBEBUILDER_ASSETS: ASSETS,
    KUBECTL: join(ASSETS, "kubectl"),
  };
  await scaffoldProject(project);
  await buildProject(project);
}, 600_000);

afterAll(async () => {
  for (const op of operators) {
    op.kill("SIGKILL");
    await op.catch(() => undefined);
  }
  await env?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe.sequential("make deploy, then the operator with its in-cluster identity", () => {
  let identity: Identity;
  let op: Running;

  it("make install and make deploy apply server-side on the local control plane", async () => {
    await make(["install"]);
    await make(["deploy", ...DEPLOY]);
    const managers = await kubectlOK([
      "get",
      "deployment",
      SA,
      "-n",
      NS,
      "-o",
      "jsonpath={.metadata.managedFields[*].operation}",
    ]);
    expect(managers).toContain("Apply");
    identity = await podIdentity();
  }, 180_000);

  it("reconciles, takes the leader Lease and serves webhooks and metrics with only the generated RBAC", async () => {
    op = await startOperator(identity);
    // The operator issues its webhook certificate into the Secret and injects the CA.
    await eventually(async () => {
      const ca = await kubectlOK([
        "get",
        "validatingwebhookconfiguration",
        "gpubudget-validating-webhook-configuration",
        "-o",
        "jsonpath={.webhooks[0].clientConfig.caBundle}",
      ]);
      expect(ca, op.output()).not.toBe("");
    }, 60_000);
    await kubectlOK(["get", "secret", "webhook-server-cert", "-n", NS]);
    const holder = await eventually(async () => {
      const h = await kubectlOK([
        "get",
        "lease",
        "a4aa2a1b.lab.example.com",
        "-n",
        NS,
        "-o",
        "jsonpath={.spec.holderIdentity}",
      ]);
      expect(h).not.toBe("");
      return h;
    }, 60_000);
    expect(holder).toBeTruthy();

    // The story: exceed, recover, Deny.
    await kubectlOK(["create", "namespace", "team-a"]);
    await kubectlOK(["apply", "-f", "-"], budgetManifest("team-a", "team-a-budget", 4));
    await kubectlOK(["apply", "-f", "-"], gpuPodManifest("team-a", "g1", 6));
    await eventually(async () => {
      const status = await budgetStatus();
      expect(status, op.output()).toContain('"allocatedGPUs":6');
      expect(status).toContain('"reason":"BudgetExceeded"');
    }, 60_000);
    await kubectlOK(["delete", "pod", "g1", "-n", "team-a", "--grace-period=0", "--force"]);
    await eventually(async () => {
      const status = await budgetStatus();
      expect(status).toContain('"allocatedGPUs":0');
      expect(status).toContain('"status":"True"');
    }, 60_000);
    await kubectlOK([
      "patch",
      "gb",
      "team-a-budget",
      "-n",
      "team-a",
      "--type=merge",
      "-p",
      '{"spec":{"enforcement":"Deny"}}',
    ]);
    const denied = await eventually(async () => {
      const r = await kubectl(["apply", "-f", "-"], gpuPodManifest("team-a", "g2", 5));
      expect(r.exitCode, `${r.all}\n${op.output()}`).not.toBe(0);
      return r.all;
    }, 60_000);
    expect(denied).toContain('admission webhook "vpod-v1.kb.io" denied the request');
    expect(denied).toContain("GPUBudget team-a/team-a-budget allows 4");

    // Metrics over HTTPS, checked with TokenReview + SubjectAccessReview: refused without a token, served
    // to a service account bound to the metrics-reader role.
    expect((await httpsGet(op.metricsPort, "/metrics")).status).toBe(401);
    await kubectlOK([
      "create",
      "clusterrolebinding",
      "gpubudget-metrics-reader-e2e",
      "--clusterrole=gpubudget-metrics-reader",
      `--serviceaccount=${NS}:${SA}`,
    ]);
    const token = readFileSync(join(identity.dir, "token"), "utf8");
    const metrics = await eventually(async () => {
      const r = await httpsGet(op.metricsPort, "/metrics", token);
      expect(r.status).toBe(200);
      return r.body;
    });
    expect(metrics).toMatch(/gpubudget_allocated_gpus\{[^}]*name="team-a-budget"/);
    expect(metrics).toContain("controller_runtime_reconcile_total");
    await kubectlOK(["delete", "clusterrolebinding", "gpubudget-metrics-reader-e2e"]);
    await stopOperator(op);
    expect(op.output()).not.toMatch(/forbidden/i);
  }, 240_000);

  it("without the pods RBAC marker, the operator says it is forbidden to list pods", async () => {
    const controller = join(project, "internal/controller/gpubudget_controller.ts");
    const source = readFileSync(controller, "utf8");
    const marker = '// +kubebuilder:rbac:groups="",resources=pods,verbs=get;list;watch\n';
    expect(source).toContain(marker);
    writeFileSync(controller, source.replace(marker, ""));
    try {
      await make(["deploy", ...DEPLOY]);
      const rules = await kubectlOK([
        "get",
        "clusterrole",
        "gpubudget-manager-role",
        "-o",
        "jsonpath={.rules}",
      ]);
      expect(rules).not.toContain('"pods"');
      const reduced = await startOperator(identity);
      await eventually(
        async () =>
          expect(reduced.output()).toMatch(
            /pods is forbidden: User \\?"system:serviceaccount:gpubudget-system:gpubudget-controller-manager\\?" cannot (list|watch) resource \\?"pods\\?"/,
          ),
        60_000,
      );
      await stopOperator(reduced);
    } finally {
      writeFileSync(controller, source);
    }
  }, 180_000);

  it("make undeploy removes everything make deploy created", async () => {
    const objects = await renderedObjects();
    expect(objects.length).toBeGreaterThan(15);
    await make(["undeploy", ...DEPLOY]);
    for (const o of objects) {
      const get = ["get", o.kind, o.name, ...(o.namespace ? ["-n", o.namespace] : [])];
      if (o.kind === "Namespace") {
        // Plain envtest runs no namespace controller: the namespace is Terminating, never finalized.
        const deleting = await kubectl([...get, "-o", "jsonpath={.metadata.deletionTimestamp}"]);
        expect(
          deleting.exitCode !== 0 || /\d{4}-/.test(deleting.stdout),
          `${o.kind} ${o.name}: ${deleting.all}`,
        ).toBe(true);
        continue;
      }
      await eventually(async () => {
        const gone = await kubectl(get);
        expect(gone.all, `${o.kind} ${o.namespace ?? ""}/${o.name} is still there`).toMatch(
          /NotFound|not found/,
        );
      }, 30_000);
    }
  }, 120_000);
});

describe("make install with server-side apply", () => {
  it("installs a CRD larger than client-side apply's 262,144-byte annotation limit", async () => {
    const types = join(project, "api/v1alpha1/gpubudget_types.ts");
    const source = readFileSync(types, "utf8");
    // A 300 KB field description: real CRDs with long docs (and many versions) grow this big.
    const long = Array.from(
      { length: 5000 },
      (_, i) => `  // Line ${i} of a very long description of this field, as long CRD documentation grows.`,
    ).join("\n");
    writeFileSync(types, source.replace(/(\n\s*maxGPUs[?]?:)/, `\n${long}$1`));
    try {
      await make(["install"]);
      const size = (await kubectlOK(["get", "crd", "gpubudgets.capacity.lab.example.com", "-o", "json"]))
        .length;
      expect(size).toBeGreaterThan(262_144);
      await make(["uninstall"]);
      // The same CRD through client-side apply is refused: why install applies server-side.
      const rendered = await kubectlOK(["kustomize", join(project, "config/crd")]);
      const clientSide = await kubectl(["apply", "-f", "-"], rendered);
      expect(clientSide.all).toMatch(/Too long|too long/);
    } finally {
      writeFileSync(types, source);
    }
  }, 180_000);
});
