/**
 * envtest's cluster mode: beside etcd and kube-apiserver, kube-controller-manager (workload, namespace,
 * garbage-collection, service-account and node-lifecycle controllers), kube-scheduler and kwok, which plays
 * the kubelet of simulated nodes (pods are scheduled, go Running and terminate, with no containers).
 */

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { stringify } from "yaml";
import { sleepUnlessAborted } from "../internal/sleep.js";
import type { CertificateAuthority } from "../tls/certs.js";
import { EnvtestError } from "./errors.js";
import { kubeconfigYAML } from "./kubeconfig.js";
import {
  checkNodes,
  KWOK_NODE_LABEL,
  KWOK_NODE_MANAGED,
  KWOK_NODE_STOPPED,
  nodeObject,
  type SimulatedNode,
} from "./nodes.js";
import { freePort } from "./ports.js";
import { ControlPlaneProcess } from "./process.js";
import { type RawClient, statusMessage } from "./rest.js";
import { KWOK_STAGES_FILE } from "./store.js";

export interface ClusterOptions {
  /** The simulated nodes, e.g. `[{ name: "gpu-0", capacity: { "nvidia.com/gpu": "8" } }]`. */
  nodes: SimulatedNode[];
  /**
   * How long a node may go without a heartbeat before it is NotReady (kube-controller-manager's
   * --node-monitor-grace-period). Default 20 s, so a stopped node fails in seconds rather than the 50 s of
   * a real cluster, and a busy 2-core machine still does not fail healthy ones.
   */
  nodeMonitorGracePeriodSeconds?: number;
  /** Extra or overriding kube-controller-manager flags (name without dashes → value). */
  controllerManagerFlags?: Record<string, string>;
  /** Extra or overriding kube-scheduler flags (name without dashes → value). */
  schedulerFlags?: Record<string, string>;
}

/** What a test can do to the simulated cluster. */
export interface Cluster {
  /** Names of the simulated nodes, in the order given. */
  nodeNames(): string[];
  /**
   * Stops a node's simulated kubelet: its lease is no longer renewed, so after the grace period the node
   * goes NotReady, is tainted unreachable, and its pods are evicted once their tolerationSeconds pass
   * (they stay Terminating, as on a real cluster whose kubelet is gone).
   */
  stopNode(name: string): Promise<void>;
  /** Starts a stopped node's simulated kubelet again. */
  startNode(name: string): Promise<void>;
  /** Adds a node and waits until it is Ready. */
  addNode(node: SimulatedNode): Promise<void>;
  /** Process ids of kube-controller-manager, kube-scheduler and kwok. */
  pids(): number[];
}

/** The binaries cluster mode runs. */
export interface ClusterBinaries {
  "kube-controller-manager": string;
  "kube-scheduler": string;
  kwok: string;
}

/** What cluster mode needs from the control plane it joins. */
export interface ClusterContext {
  rest: RawClient;
  apiURL: string;
  servingCA: CertificateAuthority;
  clientCA: CertificateAuthority;
  /** The service-account signing key kube-apiserver verifies tokens with (kube-controller-manager signs). */
  serviceAccountKeyPath: string;
  startTimeoutMs: number;
  stopTimeoutMs: number;
  attachOutput: boolean;
}

export interface RunningCluster extends Cluster {
  dirs: string[];
  crashed: Promise<string>;
  stop(): Promise<void>;
}

/**
 * The controllers a workload needs, as a real cluster runs them: service accounts and their tokens,
 * garbage collection, namespace deletion, Deployments/ReplicaSets/Jobs (and their kin), quota, node
 * lifecycle with taint-based eviction, and the pod GC that cleans up after deleted nodes.
 */
export const CLUSTER_CONTROLLERS = [
  "serviceaccount-controller",
  "serviceaccount-token-controller",
  "root-ca-certificate-publisher-controller",
  "garbage-collector-controller",
  "namespace-controller",
  "deployment-controller",
  "replicaset-controller",
  "statefulset-controller",
  "daemonset-controller",
  "job-controller",
  "cronjob-controller",
  "ttl-after-finished-controller",
  "resourcequota-controller",
  "node-lifecycle-controller",
  "taint-eviction-controller",
  "pod-garbage-collector-controller",
] as const;

const DEFAULT_GRACE_SECONDS = 20;
const HOST = "127.0.0.1";
// Clients of the system components: a real cluster's defaults (20-50 QPS) would make the control plane
// the bottleneck of a benchmark that creates thousands of pods.
const COMPONENT_QPS = "500";
const COMPONENT_BURST = "1000";

/** Starts kube-controller-manager, kube-scheduler and kwok, creates the nodes and waits until they are Ready. */
export async function startCluster(
  bins: ClusterBinaries,
  ctx: ClusterContext,
  options: ClusterOptions,
): Promise<RunningCluster> {
  checkNodes(options.nodes);
  const grace = options.nodeMonitorGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
  if (!(Number.isInteger(grace) && grace >= 4)) {
    throw new EnvtestError(`cluster.nodeMonitorGracePeriodSeconds ${grace} is too short`, {
      fix: "use a whole number of seconds, at least 4 (kwok renews a node's lease every quarter of it)",
    });
  }
  const [kcmPort, schedulerPort, kwokPort] = [
    await freePort(HOST),
    await freePort(HOST),
    await freePort(HOST),
  ];
  // Made with no await before its owner (the controller manager's process) exists, which is tracked for
  // the exit hook and removes it.
  const dir = mkdtempSync(join(tmpdir(), "k8s_test_framework_cluster_"));
  const write = (name: string, data: string) => {
    const path = join(dir, name);
    writeFileSync(path, data, { mode: 0o600 });
    return path;
  };
  // Each component authenticates with its own client certificate; all are system:masters, because this
  // is a test control plane and the components' own RBAC is not what a test exercises.
  const kubeconfigFor = (user: string) => {
    const pair = ctx.clientCA.issue({ commonName: user, organizations: ["system:masters"], usage: "client" });
    return write(
      `${user.replace(/[^\w-]/g, "_")}.kubeconfig`,
      kubeconfigYAML({
        host: ctx.apiURL,
        caData: ctx.servingCA.cert,
        certData: pair.cert,
        keyData: pair.key,
      }),
    );
  };
  const servingFor = (name: string) => {
    const pair = ctx.servingCA.issue({ commonName: name, hosts: ["localhost", HOST], usage: "server" });
    return { cert: write(`${name}.crt`, pair.cert), key: write(`${name}.key`, pair.key) };
  };
  const common = {
    startTimeoutMs: ctx.startTimeoutMs,
    stopTimeoutMs: ctx.stopTimeoutMs,
    attachOutput: ctx.attachOutput,
  };

  const kcmServing = servingFor("kube-controller-manager");
  const controllerManager = new ControlPlaneProcess({
    name: "kube-controller-manager",
    binary: bins["kube-controller-manager"],
    flags: {
      "bind-address": HOST,
      "secure-port": String(kcmPort),
      "tls-cert-file": kcmServing.cert,
      "tls-private-key-file": kcmServing.key,
      kubeconfig: kubeconfigFor("system:kube-controller-manager"),
      "leader-elect": "false",
      controllers: CLUSTER_CONTROLLERS.join(","),
      "service-account-private-key-file": ctx.serviceAccountKeyPath,
      "root-ca-file": write("ca.crt", ctx.servingCA.cert),
      "use-service-account-credentials": "false",
      "node-monitor-grace-period": `${grace}s`,
      "node-monitor-period": "1s",
      // Taint a failed node at once rather than one node per 10 s.
      "node-eviction-rate": "10",
      "kube-api-qps": COMPONENT_QPS,
      "kube-api-burst": COMPONENT_BURST,
      "cluster-name": "envtest",
      ...options.controllerManagerFlags,
    },
    healthURL: `https://${HOST}:${kcmPort}/healthz`,
    tls: { ca: ctx.servingCA.cert },
    dirs: [dir],
    ...common,
  });

  const schedulerServing = servingFor("kube-scheduler");
  const schedulerConfig = write(
    "kube-scheduler.yaml",
    stringify({
      apiVersion: "kubescheduler.config.k8s.io/v1",
      kind: "KubeSchedulerConfiguration",
      clientConnection: {
        kubeconfig: kubeconfigFor("system:kube-scheduler"),
        qps: Number(COMPONENT_QPS),
        burst: Number(COMPONENT_BURST),
      },
      leaderElection: { leaderElect: false },
    }),
  );
  const scheduler = new ControlPlaneProcess({
    name: "kube-scheduler",
    binary: bins["kube-scheduler"],
    flags: {
      config: schedulerConfig,
      "bind-address": HOST,
      "secure-port": String(schedulerPort),
      "tls-cert-file": schedulerServing.cert,
      "tls-private-key-file": schedulerServing.key,
      ...options.schedulerFlags,
    },
    healthURL: `https://${HOST}:${schedulerPort}/healthz`,
    tls: { ca: ctx.servingCA.cert },
    dirs: [],
    ...common,
  });

  const kwok = new ControlPlaneProcess({
    name: "kwok",
    binary: bins.kwok,
    flags: {
      config: join(dirname(bins.kwok), KWOK_STAGES_FILE),
      kubeconfig: kubeconfigFor("system:kwok-controller"),
      "manage-nodes-with-label-selector": `${KWOK_NODE_LABEL}=${KWOK_NODE_MANAGED}`,
      "node-lease-duration-seconds": String(grace),
      "server-address": `${HOST}:${kwokPort}`,
      "node-ip": HOST,
      // Room for a benchmark's ten thousand pod IPs (kwok hands them out lazily).
      cidr: "10.64.0.0/12",
    },
    healthURL: `http://${HOST}:${kwokPort}/healthz`,
    dirs: [],
    ...common,
  });

  const processes = [kwok, scheduler, controllerManager];
  const stop = async () => {
    // kwok first, so no simulated kubelet acts on objects the controllers are no longer reconciling.
    for (const p of processes) await p.stop();
  };
  const nodes = [...options.nodes];
  try {
    await Promise.all(processes.map((p) => p.start()));
    await Promise.all(nodes.map((n) => createNode(ctx.rest, n)));
    await waitForNodes(
      ctx.rest,
      nodes.map((n) => n.name),
      "True",
      ctx.startTimeoutMs,
    );
  } catch (err) {
    await stop();
    throw err;
  }

  const known = (name: string) => {
    if (!nodes.some((n) => n.name === name)) {
      throw new EnvtestError(`no simulated node "${name}"`, {
        fix: `use one of ${nodes.map((n) => n.name).join(", ")}`,
      });
    }
  };
  return {
    nodeNames: () => nodes.map((n) => n.name),
    async stopNode(name) {
      known(name);
      await labelNode(ctx.rest, name, KWOK_NODE_STOPPED);
    },
    async startNode(name) {
      known(name);
      await labelNode(ctx.rest, name, KWOK_NODE_MANAGED);
      await waitForNodes(ctx.rest, [name], "True", ctx.startTimeoutMs + grace * 1000);
    },
    async addNode(node) {
      checkNodes([...nodes, node]);
      await createNode(ctx.rest, node);
      nodes.push(node);
      await waitForNodes(ctx.rest, [node.name], "True", ctx.startTimeoutMs);
    },
    pids: () => processes.map((p) => p.pid).filter((p): p is number => p !== undefined),
    dirs: [dir],
    crashed: Promise.race(processes.map((p) => p.unexpectedExit())),
    stop,
  };
}

async function createNode(rest: RawClient, node: SimulatedNode): Promise<void> {
  const res = await rest.call("POST", "/api/v1/nodes", nodeObject(node));
  if (res.status !== 201) {
    throw new EnvtestError(`creating simulated node ${node.name} failed: ${statusMessage(res)}`);
  }
}

async function labelNode(rest: RawClient, name: string, value: string): Promise<void> {
  const res = await rest.call(
    "PATCH",
    `/api/v1/nodes/${encodeURIComponent(name)}`,
    { metadata: { labels: { [KWOK_NODE_LABEL]: value } } },
    "application/merge-patch+json",
  );
  if (res.status !== 200) throw new EnvtestError(`labelling node ${name} failed: ${statusMessage(res)}`);
}

interface NodeList {
  items?: { metadata?: { name?: string }; status?: { conditions?: { type?: string; status?: string }[] } }[];
}

/** Polls until every named node's Ready condition has the wanted status. */
async function waitForNodes(
  rest: RawClient,
  names: string[],
  ready: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let pending = names;
  for (;;) {
    const res = await rest.call("GET", "/api/v1/nodes").catch(() => undefined);
    if (res?.status === 200) {
      const status = new Map(
        ((res.body as NodeList).items ?? []).map((n) => [
          n.metadata?.name ?? "",
          n.status?.conditions?.find((c) => c.type === "Ready")?.status,
        ]),
      );
      pending = names.filter((n) => status.get(n) !== ready);
      if (pending.length === 0) return;
    }
    if (Date.now() > deadline) {
      throw new EnvtestError(
        `simulated node(s) ${pending.join(", ")} did not become Ready within ${timeoutMs}ms`,
        { fix: "set KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT=true to see kwok's output" },
      );
    }
    await sleepUnlessAborted(100);
  }
}
