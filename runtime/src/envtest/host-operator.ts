/**
 * An operator deployed for an end-to-end test on a control plane that runs no containers: envtest, or
 * its cluster mode, whose kwok nodes only pretend to run pods. After `make deploy` has applied the
 * project's manifests, the manager runs as a process of this host with exactly what its Deployment gives
 * its pod: the container's command and args, its ServiceAccount's token (from the TokenRequest API) with
 * the cluster CA and namespace where a pod has them (KBTS_SERVICE_ACCOUNT_DIR), KUBERNETES_SERVICE_HOST
 * and _PORT, and no kubeconfig, so it can do only what the generated RBAC grants. The Services that select
 * its pod get endpoints at this host, as the endpoints controller would point them at the pod, so the API
 * server reaches its webhooks (envtest routes Service calls to endpoints: there is no kube-proxy).
 *
 *   const op = await startOperatorOnHost({ kubeconfig, namespace, deployment, cwd: projectDir });
 *   await scrapeMetrics(op.metricsPort, token);   // 401/403/200 as the metrics filter decides
 *   await op.stop();
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { LoadedKubeConfig } from "../client/kubeconfig.js";
import { parseDocuments } from "../internal/manifests.js";
import { EnvtestError } from "./errors.js";
import { freePort } from "./ports.js";
import { ControlPlaneProcess } from "./process.js";
import { RawClient, type RestResponse, statusMessage } from "./rest.js";

export interface HostOperatorOptions {
  /** The kubeconfig of the control plane (an admin: it reads the Deployment and requests the token). */
  kubeconfig: string;
  /** Namespace and name of the manager's Deployment, as `make deploy` created it. */
  namespace: string;
  deployment: string;
  /** Where the container's command runs: the project directory (`node dist/cmd/main.js`). */
  cwd: string;
  /** More manager arguments, after the Deployment's. */
  args?: string[];
  /** How long the manager may take to answer /healthz (default 60 s). */
  startTimeoutMs?: number;
  /** More environment for the manager, over its pod's: e.g. PATH with the node its image runs. */
  env?: Record<string, string>;
}

export interface HostOperator {
  /** The ServiceAccount the manager runs as. */
  readonly serviceAccount: string;
  /** The ServiceAccount token it authenticates with. */
  readonly token: string;
  /** Its ports on this host: metrics (0 when the Deployment serves none), health probes, webhooks. */
  readonly metricsPort: number;
  readonly probePort: number;
  readonly webhookPort: number;
  readonly pid: number | undefined;
  /** What it has logged so far (the last 4 MiB). */
  output(): string;
  /** SIGTERM, then SIGKILL after 20 s; removes its files. Idempotent. */
  stop(): Promise<void>;
}

interface Container {
  name: string;
  command?: string[];
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[];
  ports?: { name?: string; containerPort: number }[];
}

interface Deployment {
  spec: {
    template: {
      metadata?: { labels?: Record<string, string> };
      spec: { serviceAccountName?: string; containers: Container[] };
    };
  };
}

interface Service {
  metadata: { name: string };
  spec?: { selector?: Record<string, string>; ports?: { name?: string; targetPort?: number | string }[] };
}

const FIELD_MANAGER = "kbts-host-operator";
const OUTPUT_BYTES = 4 * 1024 * 1024;
const DEFAULT_PROBE_PORT = 8081;
const DEFAULT_WEBHOOK_PORT = 9443;

/** `make deploy`'s operator as a process of this host, with its pod's identity; resolves once /healthz answers (readiness may wait for RBAC a test takes away). */
export async function startOperatorOnHost(options: HostOperatorOptions): Promise<HostOperator> {
  const kubeConfig = LoadedKubeConfig.fromFile(options.kubeconfig);
  const rest = new RawClient(kubeConfig);
  const { namespace, deployment } = options;
  const where = `Deployment ${namespace}/${deployment}`;
  const spec = (
    (await call(rest, "GET", `/apis/apps/v1/namespaces/${namespace}/deployments/${deployment}`)) as Deployment
  ).spec.template;
  const container = spec.spec.containers.find((c) => c.name === "manager") ?? spec.spec.containers[0];
  const [command, ...commandArgs] = container?.command ?? [];
  if (!container || !command) {
    throw new EnvtestError(`${where}: its manager container has no command to run on this host`, {
      fix: "give the container a command (config/manager/manager.yaml: command: [node, dist/cmd/main.js])",
    });
  }
  const serviceAccount = spec.spec.serviceAccountName ?? "default";

  const dir = mkdtempSync(join(tmpdir(), "kbts-host-operator-"));
  const token = await requestToken(rest, namespace, serviceAccount);
  const cluster = kubeConfig.getCurrentCluster();
  const ca = cluster?.caFile ? readFileSync(cluster.caFile, "utf8") : b64(cluster?.caData);
  const mount = join(dir, "serviceaccount");
  writeFiles(mount, { token, "ca.crt": ca, namespace });

  const [metricsPort, probePort, webhookPort] = [await freePort(), await freePort(), await freePort()];
  const { args, ports } = hostArgs(container, {
    metricsPort,
    probePort,
    webhookPort,
    certDir: join(dir, "certs"),
  });
  await pointServicesAtHost(rest, namespace, spec.metadata?.labels ?? {}, container, ports);

  const api = new URL(cluster?.server ?? "");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    // An empty home: no ~/.kube/config to fall back on, as in a container.
    HOME: mkdtempSync(join(dir, "home-")),
    KUBERNETES_SERVICE_HOST: api.hostname,
    KUBERNETES_SERVICE_PORT: api.port || "443",
    KBTS_SERVICE_ACCOUNT_DIR: mount,
    ...containerEnv(container, namespace, serviceAccount, where),
    ...options.env,
  };
  const manager = new ControlPlaneProcess({
    name: `the manager of ${where}`,
    binary: command,
    flags: {},
    args: [...commandArgs, ...args, ...(options.args ?? [])],
    env,
    cwd: options.cwd,
    outputBytes: OUTPUT_BYTES,
    healthURL: `http://127.0.0.1:${probePort}/healthz`,
    dirs: [dir],
    startTimeoutMs: options.startTimeoutMs ?? 60_000,
    stopTimeoutMs: 20_000,
    attachOutput: false,
  });
  try {
    await manager.start();
  } catch (err) {
    await manager.stop();
    throw err;
  }
  return {
    serviceAccount,
    token,
    metricsPort: ports.has("metrics") ? metricsPort : 0,
    probePort,
    webhookPort,
    get pid() {
      return manager.pid;
    },
    output: () => manager.output(),
    stop: () => manager.stop(),
  };
}

/**
 * The container's args with this host's ports and a writable certificate directory: a pod has its own
 * network namespace and filesystem, a host process shares them. `ports` maps each container port the
 * args name to its port here, for the Services' endpoints.
 */
function hostArgs(
  container: Container,
  host: { metricsPort: number; probePort: number; webhookPort: number; certDir: string },
): { args: string[]; ports: Map<string, { container: number; host: number }> } {
  const ports = new Map<string, { container: number; host: number }>();
  const portOf = (address: string) => Number(address.slice(address.lastIndexOf(":") + 1));
  const args: string[] = [];
  let probe = false;
  let webhooks = false;
  for (const arg of container.args ?? []) {
    const [flag, value = ""] = arg.split(/=(.*)/s, 2);
    if (flag === "--metrics-bind-address" && value !== "0") {
      ports.set("metrics", { container: portOf(value), host: host.metricsPort });
      args.push(`--metrics-bind-address=:${host.metricsPort}`);
    } else if (flag === "--health-probe-bind-address") {
      probe = true;
      ports.set("probe", { container: portOf(value), host: host.probePort });
      args.push(`--health-probe-bind-address=:${host.probePort}`);
    } else if (flag === "--webhook-cert-path") {
      webhooks = true;
      args.push(`--webhook-cert-path=${host.certDir}`);
    } else if (flag === "--webhook-port") {
      webhooks = true;
      ports.set("webhook", { container: Number(value), host: host.webhookPort });
    } else if (flag === "--metrics-cert-path") {
      // cert-manager's metrics certificate is mounted in a pod only: the manager makes a self-signed one.
    } else {
      args.push(arg);
    }
  }
  if (!probe) {
    ports.set("probe", { container: DEFAULT_PROBE_PORT, host: host.probePort });
    args.push(`--health-probe-bind-address=:${host.probePort}`);
  }
  if (webhooks) {
    if (!ports.has("webhook")) {
      const named = container.ports?.find((p) => p.name === "webhook-server")?.containerPort;
      ports.set("webhook", { container: named ?? DEFAULT_WEBHOOK_PORT, host: host.webhookPort });
    }
    args.push(`--webhook-port=${host.webhookPort}`);
  }
  return { args, ports };
}

/** The container's env; of the Downward API, the pod's namespace, name and service account. */
function containerEnv(
  container: Container,
  namespace: string,
  serviceAccount: string,
  where: string,
): Record<string, string> {
  const fields: Record<string, string> = {
    "metadata.namespace": namespace,
    "metadata.name": `${serviceAccount}-host`,
    "spec.serviceAccountName": serviceAccount,
  };
  const env: Record<string, string> = {};
  for (const e of container.env ?? []) {
    const field = e.valueFrom?.fieldRef?.fieldPath;
    const value = e.value ?? (field === undefined ? undefined : fields[field]);
    if (value === undefined) {
      throw new EnvtestError(`${where}: env ${e.name} cannot be set on this host`, {
        fix: `give it a value, or a fieldRef to one of ${Object.keys(fields).join(", ")}`,
      });
    }
    env[e.name] = value;
  }
  return env;
}

/** A token of the ServiceAccount from the TokenRequest API, as the kubelet projects one into a pod. */
async function requestToken(rest: RawClient, namespace: string, serviceAccount: string): Promise<string> {
  const answer = (await call(
    rest,
    "POST",
    `/api/v1/namespaces/${namespace}/serviceaccounts/${serviceAccount}/token`,
    {
      apiVersion: "authentication.k8s.io/v1",
      kind: "TokenRequest",
      spec: { expirationSeconds: 3600 },
    },
  )) as { status: { token: string } };
  return answer.status.token;
}

/**
 * What the endpoints controller does for the pod, with this host's address: every Service of the
 * namespace that selects the pod's labels gets Endpoints and an EndpointSlice with the host ports of
 * the container ports it targets.
 */
async function pointServicesAtHost(
  rest: RawClient,
  namespace: string,
  labels: Record<string, string>,
  container: Container,
  ports: Map<string, { container: number; host: number }>,
): Promise<void> {
  const ip = hostAddress();
  const hostPort = (target: number | string | undefined) => {
    const port =
      typeof target === "string" ? container.ports?.find((p) => p.name === target)?.containerPort : target;
    return [...ports.values()].find((p) => p.container === port)?.host;
  };
  const services = (
    (await call(rest, "GET", `/api/v1/namespaces/${namespace}/services`)) as { items: Service[] }
  ).items;
  for (const svc of services) {
    const selector = Object.entries(svc.spec?.selector ?? {});
    if (selector.length === 0 || !selector.every(([k, v]) => labels[k] === v)) continue;
    const mapped = (svc.spec?.ports ?? []).flatMap((p) => {
      const port = hostPort(p.targetPort);
      return port === undefined ? [] : [{ name: p.name ?? "", port, protocol: "TCP" }];
    });
    if (mapped.length === 0) continue;
    const name = svc.metadata.name;
    await apply(rest, `/api/v1/namespaces/${namespace}/endpoints/${name}`, {
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: { name, namespace },
      subsets: [{ addresses: [{ ip }], ports: mapped }],
    });
    await apply(rest, `/apis/discovery.k8s.io/v1/namespaces/${namespace}/endpointslices/${name}-host`, {
      apiVersion: "discovery.k8s.io/v1",
      kind: "EndpointSlice",
      metadata: { name: `${name}-host`, namespace, labels: { "kubernetes.io/service-name": name } },
      addressType: "IPv4",
      endpoints: [{ addresses: [ip], conditions: { ready: true } }],
      ports: mapped,
    });
  }
}

/** This machine's first non-loopback IPv4 address (endpoints may not be loopback addresses). */
function hostAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  throw new EnvtestError("this host has no non-loopback IPv4 address", {
    fix: "the API server reaches a webhook on this host only through one: bring up a network interface",
  });
}

/**
 * Whether a kubeconfig is one envtest wrote (`kbts envtest start`, `make setup-test-e2e`): its current
 * context is envtest's and its server is on this machine. Such a control plane runs no containers, so
 * an e2e test runs the operator with startOperatorOnHost instead of waiting for its pod.
 */
export function isLocalControlPlane(kubeconfig: string): boolean {
  const kc = LoadedKubeConfig.fromFile(kubeconfig);
  const server = kc.getCurrentCluster()?.server;
  if (kc.getCurrentContext() !== "envtest" || !server) return false;
  return ["127.0.0.1", "localhost", "[::1]"].includes(new URL(server).hostname);
}

/**
 * GET https://127.0.0.1:port/metrics, with a bearer token when given, as a scraper would. The serving
 * certificate is not verified: without cert-manager it is self-signed.
 */
export function scrapeMetrics(port: number, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/metrics",
        rejectUnauthorized: false,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on("timeout", () => req.destroy(new Error(`GET https://127.0.0.1:${port}/metrics timed out`)));
    req.on("error", reject);
    req.end();
  });
}

/** What webhookCABundles found: every webhook of the manifests, and those whose caBundle is empty. */
export interface CABundles {
  /** `Kind name` of each webhook configuration and each CRD with a conversion webhook. */
  checked: string[];
  /** `Kind name: webhook` of each webhook without a caBundle in the cluster (or not in it at all). */
  missing: string[];
}

/**
 * Checks, in the cluster of `kubeconfig`, the caBundle of every ValidatingWebhookConfiguration,
 * MutatingWebhookConfiguration and CRD conversion webhook that `manifests` (the YAML `make deploy`
 * applies) define: what cert-manager or the operator's own certificate rotation injects.
 */
export async function webhookCABundles(kubeconfig: string, manifests: string): Promise<CABundles> {
  const rest = new RawClient(LoadedKubeConfig.fromFile(kubeconfig));
  const result: CABundles = { checked: [], missing: [] };
  type Hook = { name?: string; clientConfig?: { caBundle?: string } };
  for (const { doc } of parseDocuments(manifests, "the applied manifests", (m) => new EnvtestError(m))) {
    const obj = doc as {
      kind?: string;
      metadata?: { name?: string };
      spec?: { conversion?: { strategy?: string } };
    };
    const name = obj?.metadata?.name ?? "";
    const admission =
      obj?.kind === "ValidatingWebhookConfiguration" || obj?.kind === "MutatingWebhookConfiguration";
    const conversion =
      obj?.kind === "CustomResourceDefinition" && obj.spec?.conversion?.strategy === "Webhook";
    if (!admission && !conversion) continue;
    const what = `${obj?.kind} ${name}`;
    result.checked.push(what);
    const path = admission
      ? `/apis/admissionregistration.k8s.io/v1/${obj?.kind?.toLowerCase()}s/${name}`
      : `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`;
    const res = await rest.call("GET", path);
    if (res.status !== 200) {
      result.missing.push(`${what}: ${statusMessage(res)}`);
      continue;
    }
    const live = res.body as { webhooks?: Hook[]; spec?: { conversion?: { webhook?: Hook } } };
    const hooks = admission
      ? (live.webhooks ?? [])
      : [{ name: "conversion", ...live.spec?.conversion?.webhook }];
    for (const hook of hooks) {
      if (!hook.clientConfig?.caBundle) result.missing.push(`${what}: ${hook.name ?? "(unnamed)"}`);
    }
  }
  return result;
}

async function call(rest: RawClient, method: string, path: string, body?: unknown): Promise<unknown> {
  const res: RestResponse = await rest.call(method, path, body);
  if (res.status < 200 || res.status > 299) {
    throw new EnvtestError(`${method} ${path}: ${statusMessage(res)}`);
  }
  return res.body;
}

/** Server-side apply of one object (JSON is YAML), taking over fields another manager set. */
async function apply(rest: RawClient, path: string, obj: object): Promise<void> {
  const res = await rest.call(
    "PATCH",
    `${path}?fieldManager=${FIELD_MANAGER}&force=true`,
    obj,
    "application/apply-patch+yaml",
  );
  if (res.status !== 200 && res.status !== 201) {
    throw new EnvtestError(`apply ${path}: ${statusMessage(res)}`);
  }
}

function writeFiles(dir: string, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
}

const b64 = (data: string | undefined) => (data ? Buffer.from(data, "base64").toString() : "");
