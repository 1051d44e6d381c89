/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import {
  type HostOperator,
  isLocalControlPlane,
  scrapeMetrics,
  startOperatorOnHost,
  webhookCABundles,
} from "@kbts/runtime/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The operator deployed with `make deploy`, checked as its users meet it: the controllers run, metrics are
// served only to authorized clients, webhooks get their CA. Run with `make test-e2e` (CI: make
// setup-test-e2e test-e2e cleanup-test-e2e), against the cluster of KUBECONFIG:
// - the local control plane of `make setup-test-e2e` runs no containers (its nodes are simulated), so the
//   manager runs on this host with its pod's identity: the ServiceAccount's token (TokenRequest API), no
//   kubeconfig, only the generated RBAC; the Services that select its pod point at this host, and
//   config/certrotation (when the project has webhooks) lets it keep its own webhook certificate;
// - any other cluster (Kind, ...) runs the image: build and load it first (`make docker-build IMG=...`,
//   `kind load docker-image ...`) and set IMG (and DEPLOY_CONFIG=config/certrotation without cert-manager).

const namespace = "gpubudget-system";
const deployment = "gpubudget-controller-manager";
const kubeconfig = process.env.KUBECONFIG ?? "";
const local = kubeconfig !== "" && isLocalControlPlane(kubeconfig);
const deployConfig =
  process.env.DEPLOY_CONFIG ??
  (local && existsSync("config/certrotation") ? "config/certrotation" : "config/default");
const kubectlBin = process.env.KUBECTL ?? "kubectl";
const project = readFileSync("PROJECT", "utf8");
const hasControllers = /^\s+controller: true$/m.test(project);
const hasWebhooks = /^\s+webhooks:$/m.test(project);
const hasSamples = existsSync("config/samples/kustomization.yaml");

/** Runs a command with `input` on its stdin; a failure carries its stderr. */
function sh(command: string, args: string[], input = ""): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${command} ${args.join(" ")}: ${stderr || err.message}`)) : resolve(stdout),
    );
    child.stdin?.end(input);
  });
}

const kubectl = (args: string[], input?: string) => sh(kubectlBin, args, input);
const make = (...args: string[]) => sh("make", args);

/** Objects of config/samples name the default namespace; a namespaced operator watches only its own. */
const inOperatorNamespace = (manifests: string) =>
  manifests.replace(/^(\s+)namespace: default$/gm, `$1namespace: ${namespace}`);

/** Creates the namespaces that objects of `manifests` (kustomize's output) name and that do not exist. */
async function createNamespacesOf(manifests: string): Promise<void> {
  const names = new Set([...manifests.matchAll(/^ {2}namespace: (\S+)$/gm)].map((m) => m[1] ?? ""));
  for (const name of names) {
    const exists = await kubectl(["get", "namespace", name]).then(
      () => true,
      () => false,
    );
    if (!exists) await kubectl(["create", "namespace", name]);
  }
}

/** Polls `check` until it passes or the deadline expires (no fixed sleeps). */
async function eventually<T>(check: () => Promise<T>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/** The deployed manager: its logs, a local port of its metrics endpoint, and how to stop watching it. */
interface Manager {
  logs(): Promise<string>;
  metricsPort: number;
  stop(): Promise<void>;
}

/** On the local control plane: the manager as a process of this host, with its pod's identity. */
async function managerOnHost(): Promise<Manager> {
  const operator: HostOperator = await startOperatorOnHost({ kubeconfig, namespace, deployment, cwd: "." });
  return {
    logs: async () => operator.output(),
    metricsPort: operator.metricsPort,
    stop: () => operator.stop(),
  };
}

/** On a real cluster: the Deployment's pod, its logs, and its metrics Service port-forwarded here. */
async function managerInCluster(): Promise<Manager> {
  await kubectl(["rollout", "status", `deployment/${deployment}`, "-n", namespace, "--timeout=5m"]);
  const forward = execFile(kubectlBin, [
    "port-forward",
    "-n",
    namespace,
    "service/gpubudget-controller-manager-metrics-service",
    ":8443",
  ]);
  let forwarded = "";
  forward.stdout?.on("data", (chunk: Buffer) => {
    forwarded += chunk.toString();
  });
  const metricsPort = await eventually(async () => {
    const match = /Forwarding from 127\.0\.0\.1:(\d+)/.exec(forwarded);
    if (!match) throw new Error(`kubectl port-forward has not started: ${forwarded}`);
    return Number(match[1]);
  }, 60_000);
  return {
    logs: () => kubectl(["logs", `deployment/${deployment}`, "-n", namespace]),
    metricsPort,
    stop: async () => {
      forward.kill();
    },
  };
}

describe.sequential("Manager", () => {
  let manager: Manager | undefined;
  let token = "";

  beforeAll(async () => {
    await make("deploy", `IMG=${process.env.IMG ?? "controller:latest"}`, `DEPLOY_CONFIG=${deployConfig}`);
    manager = local ? await managerOnHost() : await managerInCluster();
  }, 600_000);

  afterAll(async () => {
    await manager?.stop();
    await kubectl(["delete", "clusterrolebinding", "gpubudget-e2e-metrics-reader", "--ignore-not-found"]);
    await make("undeploy", `DEPLOY_CONFIG=${deployConfig}`, "ignore-not-found=true");
  }, 300_000);

  const running = (): Manager => {
    if (!manager) throw new Error("the manager did not start (see beforeAll)");
    return manager;
  };

  /** The sum of a counter's series on the metrics endpoint, of those whose labels include `labels`. */
  async function counter(name: string, labels = ""): Promise<number> {
    const { status, body } = await scrapeMetrics(running().metricsPort, token);
    expect(status, body).toBe(200);
    return body
      .split("\n")
      .filter((line) => line.startsWith(`${name}{`) && line.includes(labels))
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
  }

  it("runs as the leader", async () => {
    await eventually(async () => expect(await running().logs()).toContain("successfully acquired lease"));
  });

  it("serves metrics to an authorized client and refuses the others", async () => {
    const { metricsPort } = running();
    expect((await scrapeMetrics(metricsPort)).status).toBe(401);
    // Two service accounts: one bound to the metrics-reader role, one authenticated but not allowed.
    const tokenOf = async (account: string) => {
      await kubectl(["create", "serviceaccount", account, "-n", namespace]);
      return (await kubectl(["create", "token", account, "-n", namespace])).trim();
    };
    await kubectl([
      "create",
      "clusterrolebinding",
      "gpubudget-e2e-metrics-reader",
      "--clusterrole=gpubudget-metrics-reader",
      `--serviceaccount=${namespace}:e2e-metrics-reader`,
    ]);
    token = await tokenOf("e2e-metrics-reader");
    expect((await scrapeMetrics(metricsPort, await tokenOf("e2e-no-metrics"))).status).toBe(403);
    await eventually(async () => expect((await scrapeMetrics(metricsPort, token)).status).toBe(200));
  });

  it.runIf(hasControllers && hasSamples)("starts the controllers and reconciles the samples", async () => {
    await eventually(async () => expect(await running().logs()).toContain("Starting workers"));
    const samples = inOperatorNamespace(await kubectl(["kustomize", "config/samples"]));
    // A sample may name a namespace of its own (a team's), which a user creates first.
    await createNamespacesOf(samples);
    await kubectl(["apply", "-f", "-"], samples);
    await eventually(async () =>
      expect(await counter("controller_runtime_reconcile_total")).toBeGreaterThan(0),
    );
  });

  it.runIf(hasWebhooks)("injects the CA bundle into every webhook of the project", async () => {
    const manifests = await kubectl(["kustomize", deployConfig]);
    await eventually(async () => {
      const bundles = await webhookCABundles(kubeconfig, manifests);
      expect(bundles.checked).not.toEqual([]);
      expect(bundles.missing).toEqual([]);
    });
  });

  /**
   * The manifest a kind's webhook check sends, by apiVersion/kind, for kinds whose webhooks receive only
   * some objects (a namespaceSelector or matchConditions patched into config/webhook): the plugin that
   * narrows them adds here how to make one they receive. Other kinds send their sample, or a plain Pod.
   */
  const webhookCheckManifests: Record<string, () => Promise<string>> = {
    // The Pod webhooks receive only pods that ask for an extended resource, in namespaces a Deny or Queue
    // budget labels (config/webhook/pod_*_patch.yaml): a Deny budget and a Queue budget in a namespace of
    // their own (so both the validator and the defaulter are called), the operator's label on that
    // namespace, then a pod there asking for more GPUs than the Deny budget allows. The Queue budget's
    // selector leaves the pod out, so it is not gated and the Deny budget refuses it.
    "v1/Pod": async () => {
      const checked = "gpubudget-e2e-webhook-check";
      await kubectl(
        ["apply", "-f", "-"],
        JSON.stringify({
          apiVersion: "v1",
          kind: "List",
          items: [
            { apiVersion: "v1", kind: "Namespace", metadata: { name: checked } },
            {
              apiVersion: "capacity.lab.example.com/v1alpha1",
              kind: "GPUBudget",
              metadata: { name: "e2e-webhook-check", namespace: checked },
              spec: { maxGPUs: 1, resourceName: "nvidia.com/gpu", enforcement: "Deny" },
            },
            {
              apiVersion: "capacity.lab.example.com/v1alpha1",
              kind: "GPUBudget",
              metadata: { name: "e2e-webhook-check-queue", namespace: checked },
              spec: { maxGPUs: 8, enforcement: "Queue", selector: { matchLabels: { queue: "e2e" } } },
            },
          ],
        }),
      );
      await eventually(async () => {
        const { metadata } = JSON.parse(await kubectl(["get", "namespace", checked, "-o", "json"]));
        expect(metadata.labels?.["capacity.lab.example.com/gpubudget-enforcement"]).toBe("DenyAndQueue");
      });
      return JSON.stringify({
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: "e2e-webhook-check", namespace: checked },
        spec: {
          containers: [{ name: "app", image: "busybox", resources: { limits: { "nvidia.com/gpu": "2" } } }],
        },
      });
    },
    // +kubebuilder:scaffold:e2e-webhook-check-manifests
  };

  it("calls the Pod defaulting and validating webhooks", async () => {
    const narrowed = webhookCheckManifests["v1/Pod"];
    const manifest = narrowed
      ? await narrowed()
      : JSON.stringify({
          apiVersion: "v1",
          kind: "Pod",
          metadata: { name: "e2e-webhook-check", namespace },
          spec: { containers: [{ name: "app", image: "busybox" }] },
        });
    // A server-side dry run passes through the admission webhooks: a denial is a call too, and so is a
    // create of an object that exists (the API server finds out after admission).
    const answer = await kubectl(["create", "--dry-run=server", "-f", "-"], manifest).then(
      () => "admitted",
      (err: Error) => err.message,
    );
    expect(answer).toMatch(/^admitted$|denied the request|already exists/);
    expect(
      await counter("controller_runtime_webhook_requests_total", 'webhook="/mutate--v1-pod"'),
    ).toBeGreaterThan(0);
    expect(
      await counter("controller_runtime_webhook_requests_total", 'webhook="/validate--v1-pod"'),
    ).toBeGreaterThan(0);
  });

  // +kubebuilder:scaffold:e2e-webhooks-checks
});
