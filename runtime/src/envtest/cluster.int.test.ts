/**
 * envtest's cluster mode against the real binaries: one cluster (three simulated GPU nodes) for the file.
 * Pods are scheduled and Running, workloads make pods, owned objects are collected, namespaces finish
 * deleting, service accounts get their tokens, and a stopped node goes NotReady with its pods evicted.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../internal/testdata/eventually.js";
import { type Environment, simulatedNodes, startEnvironment } from "./index.js";
import { RawClient } from "./rest.js";

let env: Environment;
let rest: RawClient;

async function get<T>(path: string): Promise<T> {
  const res = await rest.call("GET", path);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

async function create(path: string, body: unknown): Promise<void> {
  const res = await rest.call("POST", path, body);
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
}

interface Pod {
  metadata: { name: string; deletionTimestamp?: string; ownerReferences?: { kind: string }[] };
  spec: { nodeName?: string };
  status: { phase?: string; podIP?: string };
}

const pods = async (ns: string, selector = "") =>
  (await get<{ items: Pod[] }>(`/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(selector)}`))
    .items;

function podTemplate(app: string, gpus: number, extra: Record<string, unknown> = {}) {
  return {
    metadata: { labels: { app } },
    spec: {
      containers: [
        {
          name: "main",
          image: "registry.k8s.io/pause:3.10",
          resources: { limits: { "nvidia.com/gpu": String(gpus) } },
        },
      ],
      ...extra,
    },
  };
}

function pod(name: string, gpus: number, extra: Record<string, unknown> = {}) {
  const template = podTemplate(name, gpus, extra);
  return { metadata: { name, labels: template.metadata.labels }, spec: template.spec };
}

async function namespace(name: string): Promise<string> {
  await create("/api/v1/namespaces", { metadata: { name } });
  return name;
}

beforeAll(async () => {
  env = await startEnvironment({
    cluster: { nodes: simulatedNodes(3, { "nvidia.com/gpu": "8" }), nodeMonitorGracePeriodSeconds: 8 },
  });
  rest = new RawClient(env.kubeConfig);
}, 180_000);

afterAll(async () => {
  await env?.stop();
});

describe("cluster mode", () => {
  it("starts five processes and Ready nodes with the capacity asked for", async () => {
    expect(env.pids).toHaveLength(5);
    expect(env.cluster?.nodeNames()).toEqual(["kwok-node-0", "kwok-node-1", "kwok-node-2"]);
    const nodes = await get<{
      items: {
        metadata: { name: string };
        status: { allocatable: Record<string, string>; conditions: { type: string; status: string }[] };
      }[];
    }>("/api/v1/nodes");
    expect(nodes.items).toHaveLength(3);
    for (const n of nodes.items) {
      expect(n.status.allocatable["nvidia.com/gpu"]).toBe("8");
      expect(n.status.conditions.find((c) => c.type === "Ready")?.status).toBe("True");
    }
    expect(env.timings.clusterMs).toBeGreaterThan(0);
  });

  it("schedules a Deployment's pods onto the nodes and runs them", async () => {
    const ns = await namespace("deploy");
    await create(`/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: "web" },
      spec: { replicas: 4, selector: { matchLabels: { app: "web" } }, template: podTemplate("web", 2) },
    });
    await eventually(async () => {
      const running = (await pods(ns, "app=web")).filter((p) => p.status.phase === "Running");
      expect(running).toHaveLength(4);
      for (const p of running) {
        expect(p.spec.nodeName).toMatch(/^kwok-node-\d$/);
        expect(p.status.podIP).toMatch(/^10\./);
        expect(p.metadata.ownerReferences?.[0]?.kind).toBe("ReplicaSet");
      }
    });
    // kube-controller-manager writes the Deployment's status after it sees the pods ready: in time.
    await eventually(async () => {
      const deployment = await get<{ status: { readyReplicas?: number } }>(
        `/apis/apps/v1/namespaces/${ns}/deployments/web`,
      );
      expect(deployment.status.readyReplicas).toBe(4);
    });
  });

  it("leaves a pod no node can hold Pending with a FailedScheduling event", async () => {
    const ns = await namespace("toobig");
    await create(`/api/v1/namespaces/${ns}/pods`, pod("huge", 9));
    await eventually(async () => {
      const events = await get<{
        items: { reason: string; message: string; involvedObject: { name: string } }[];
      }>(`/api/v1/namespaces/${ns}/events`);
      const failed = events.items.find(
        (e) => e.reason === "FailedScheduling" && e.involvedObject.name === "huge",
      );
      expect(failed?.message).toContain("Insufficient nvidia.com/gpu");
    });
    expect((await pods(ns))[0]?.status.phase).toBe("Pending");
  });

  it("runs a Job's pods to completion", async () => {
    const ns = await namespace("jobs");
    await create(`/apis/batch/v1/namespaces/${ns}/jobs`, {
      metadata: { name: "train" },
      spec: {
        completions: 3,
        parallelism: 3,
        template: podTemplate("train", 1, { restartPolicy: "Never" }),
      },
    });
    await eventually(async () => {
      const job = await get<{
        status: { succeeded?: number; conditions?: { type: string; status: string }[] };
      }>(`/apis/batch/v1/namespaces/${ns}/jobs/train`);
      expect(job.status.succeeded).toBe(3);
      expect(job.status.conditions?.find((c) => c.type === "Complete")?.status).toBe("True");
    }, 60_000);
  });

  it("collects owned objects: deleting a Deployment removes its ReplicaSets and pods", async () => {
    const ns = await namespace("gc");
    await create(`/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: "owned" },
      spec: { replicas: 2, selector: { matchLabels: { app: "owned" } }, template: podTemplate("owned", 1) },
    });
    await eventually(async () => expect((await pods(ns, "app=owned")).length).toBe(2));
    // The default propagation for a Deployment deleted over the API is background: the garbage collector's job.
    const res = await rest.call("DELETE", `/apis/apps/v1/namespaces/${ns}/deployments/owned`);
    expect(res.status).toBe(200);
    await eventually(async () => {
      const sets = await get<{ items: unknown[] }>(`/apis/apps/v1/namespaces/${ns}/replicasets`);
      expect(sets.items).toEqual([]);
      expect(await pods(ns)).toEqual([]);
    });
  });

  it("finishes deleting a namespace with workloads in it", async () => {
    const ns = await namespace("doomed");
    await create(`/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: "d" },
      spec: { replicas: 2, selector: { matchLabels: { app: "d" } }, template: podTemplate("d", 1) },
    });
    await eventually(async () => expect((await pods(ns, "app=d")).length).toBe(2));
    expect((await rest.call("DELETE", `/api/v1/namespaces/${ns}`)).status).toBe(200);
    await eventually(
      async () => expect((await rest.call("GET", `/api/v1/namespaces/${ns}`)).status).toBe(404),
      60_000,
    );
  });

  it("gives new namespaces a default service account and signs service-account token secrets", async () => {
    const ns = await namespace("tokens");
    await eventually(async () =>
      expect((await rest.call("GET", `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status).toBe(200),
    );
    await create(`/api/v1/namespaces/${ns}/secrets`, {
      metadata: { name: "t", annotations: { "kubernetes.io/service-account.name": "default" } },
      type: "kubernetes.io/service-account-token",
    });
    await eventually(async () => {
      const secret = await get<{ data?: { token?: string; "ca.crt"?: string } }>(
        `/api/v1/namespaces/${ns}/secrets/t`,
      );
      const token = Buffer.from(secret.data?.token ?? "", "base64").toString();
      expect(token.split(".")).toHaveLength(3); // a signed JWT
      expect(Buffer.from(secret.data?.["ca.crt"] ?? "", "base64").toString()).toContain("BEGIN CERTIFICATE");
    });
  });

  it("keeps its component kubeconfigs and certs in a temp dir it removes at stop", () => {
    const clusterDir = env.tempDirs.find((d) => d.includes("k8s_test_framework_cluster_"));
    expect(clusterDir).toBeDefined();
    expect(readFileSync(`${clusterDir}/kube-scheduler.yaml`, "utf8")).toContain("leaderElect: false");
  });

  it("a stopped node goes NotReady and its pods are evicted after their tolerationSeconds", async () => {
    const ns = await namespace("outage");
    const victim = "kwok-node-2";
    const tolerations = ["unreachable", "not-ready"].map((t) => ({
      key: `node.kubernetes.io/${t}`,
      operator: "Exists",
      effect: "NoExecute",
      tolerationSeconds: 2,
    }));
    await create(`/api/v1/namespaces/${ns}/pods`, pod("doomed", 1, { nodeName: victim, tolerations }));
    await create(`/api/v1/namespaces/${ns}/pods`, pod("safe", 1, { nodeName: "kwok-node-0", tolerations }));
    await eventually(async () =>
      expect((await pods(ns)).map((p) => p.status.phase)).toEqual(["Running", "Running"]),
    );
    await env.cluster?.stopNode(victim);
    await eventually(async () => {
      const node = await get<{
        status: { conditions: { type: string; status: string }[] };
        spec: { taints?: { key: string }[] };
      }>(`/api/v1/nodes/${victim}`);
      expect(node.status.conditions.find((c) => c.type === "Ready")?.status).toBe("Unknown");
      expect(node.spec.taints?.map((t) => t.key)).toContain("node.kubernetes.io/unreachable");
    }, 60_000);
    await eventually(async () => {
      const doomed = (await pods(ns)).find((p) => p.metadata.name === "doomed");
      // Evicted: deleted, and left Terminating because no kubelet is there to confirm (as on a real cluster).
      expect(doomed?.metadata.deletionTimestamp).toBeDefined();
    }, 30_000);
    const safe = (await pods(ns)).find((p) => p.metadata.name === "safe");
    expect(safe?.metadata.deletionTimestamp).toBeUndefined();
    expect(safe?.status.phase).toBe("Running");

    await env.cluster?.startNode(victim);
    const node = await get<{ status: { conditions: { type: string; status: string }[] } }>(
      `/api/v1/nodes/${victim}`,
    );
    expect(node.status.conditions.find((c) => c.type === "Ready")?.status).toBe("True");
  });
});
