import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import type { KubeConfig } from "@kubernetes/client-node";
import type { CustomResourceDefinition } from "../api/core.js";
import { parseDuration } from "../api/duration.js";
import { sleepUnlessAborted } from "../internal/sleep.js";
import { CertificateAuthority, serviceAccountSigningKey } from "../tls/certs.js";
import { type Binaries, resolveBinaries, resolveClusterBinaries } from "./binaries.js";
import { type Disposable, track, untrack } from "./cleanup.js";
import { type Cluster, type ClusterOptions, type RunningCluster, startCluster } from "./cluster.js";
import { conversionCRDs, pointConversionAtLocalServer } from "./conversion.js";
import {
  type CustomResourceDefinitionLike,
  checkCRD,
  crdName,
  installCRDs,
  readCRDs,
  waitForCRDs,
} from "./crds.js";
import { EnvtestError } from "./errors.js";
import { kubeconfigYAML, type RestConfig } from "./kubeconfig.js";
import { nodesFromEnv } from "./nodes.js";
import { freePort, portInUse } from "./ports.js";
import { ControlPlaneProcess, ProcessStartError } from "./process.js";
import { RawClient } from "./rest.js";
import {
  type InstalledWebhooks,
  installWebhooks,
  prepareWebhookServing,
  readWebhooks,
  type WebhookInstallOptions,
} from "./webhooks.js";

export interface EnvironmentOptions {
  /** CRD files or directories (non-recursive; .yaml/.yml/.json; multi-document). */
  crdDirectoryPaths?: string[];
  /** CRDs given as objects (checked like files' CRDs). */
  crds?: Array<CustomResourceDefinitionLike | CustomResourceDefinition>;
  /** A missing CRD path is an error (default true, as kubebuilder scaffolds set it). */
  errorIfPathMissing?: boolean;
  /** Where etcd/kube-apiserver/kubectl live, after TEST_ASSET_* and KUBEBUILDER_ASSETS. */
  binaryAssetsDirectory?: string;
  /** Use the current kubeconfig instead of starting a control plane (default: env USE_EXISTING_CLUSTER=true). */
  useExistingCluster?: boolean;
  /** Pass etcd and kube-apiserver output through (default: env KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT=true). */
  attachControlPlaneOutput?: boolean;
  webhookInstallOptions?: WebhookInstallOptions;
  /** Per-process start timeout (default: env KUBEBUILDER_CONTROLPLANE_START_TIMEOUT, a Go duration, else 20s). */
  controlPlaneStartTimeoutMs?: number;
  /** Per-process stop timeout before SIGKILL (default: env KUBEBUILDER_CONTROLPLANE_STOP_TIMEOUT, else 20s). */
  controlPlaneStopTimeoutMs?: number;
  /** How long to wait for CRDs to be served (default 10s). */
  crdInstallTimeoutMs?: number;
  /** Write the kubeconfig here instead of into the control plane's temp dir (it is left in place at stop). */
  kubeconfigPath?: string;
  /** Fixed secure port for kube-apiserver (default: a free port, retried on a clash). */
  apiServerPort?: number;
  /** Extra or overriding kube-apiserver flags (name without dashes → value). */
  apiServerFlags?: Record<string, string>;
  /**
   * Cluster mode: also run kube-controller-manager, kube-scheduler and kwok with these simulated nodes, so
   * pods are scheduled and run, workloads make pods, namespaces finish deleting and garbage is collected.
   * Default: env KBTS_ENVTEST_NODES (a count) and KBTS_ENVTEST_NODE_CAPACITY (`nvidia.com/gpu=8,cpu=32`).
   */
  cluster?: ClusterOptions;
}

export interface StartTimings {
  /** etcd healthy (0 with an existing cluster). */
  etcdMs: number;
  /** kube-apiserver /healthz answering 200. */
  apiServerMs: number;
  /** The default namespace readable. */
  defaultNamespaceMs: number;
  /** CRDs created and every served version in discovery. */
  crdsMs: number;
  /** Cluster mode: controller manager, scheduler and kwok healthy and every node Ready (0 without it). */
  clusterMs: number;
  /** Start attempts made (more than 1 after a port clash). */
  attempts: number;
}

export interface Environment {
  kubeConfig: KubeConfig;
  kubeconfigPath: string;
  /** Set when envtest started the control plane (not with an existing cluster). */
  config: RestConfig | undefined;
  apiServerURL: string;
  etcdURL: string | undefined;
  binaries: Binaries | undefined;
  /** The CRDs that were installed. */
  crds: CustomResourceDefinitionLike[];
  webhookInstallOptions: InstalledWebhooks | undefined;
  /** Process ids of etcd and kube-apiserver, and in cluster mode kube-controller-manager, kube-scheduler and kwok (each leads its own process group); empty with an existing cluster. */
  pids: number[];
  /** Cluster mode's simulated nodes and their kubelets; undefined in plain mode. */
  cluster: Cluster | undefined;
  /** Temp dirs this environment created; all are removed by stop(). */
  tempDirs: string[];
  /** Resolves with a message if etcd or kube-apiserver dies before stop(); never resolves otherwise. */
  crashed: Promise<string>;
  /** How long each start-up phase took, in ms (for benchmarks and slow-start diagnosis). */
  timings: StartTimings;
  /** Stops kube-apiserver then etcd (SIGTERM to each process group, SIGKILL after the stop timeout) and removes every temp dir. */
  stop(): Promise<void>;
}

export { kubeconfigYAML, type RestConfig } from "./kubeconfig.js";

const START_ATTEMPTS = 5;
const ADMIN_USER = "admin";
const ADMIN_GROUPS = ["system:masters"];

/** Parses a Go duration ("20s", "1m30s", "500ms"); undefined when unset or invalid. */
export function parseGoDuration(value: string | undefined): number | undefined {
  return value ? parseDuration(value) : undefined;
}

/** Starts etcd and kube-apiserver (or uses an existing cluster), installs CRDs and webhooks. */
export async function startEnvironment(options: EnvironmentOptions = {}): Promise<Environment> {
  // Read every manifest before starting anything, so bad input leaves nothing running.
  const crds = [
    ...readCRDs(options.crdDirectoryPaths ?? [], options.errorIfPathMissing ?? true),
    ...(options.crds ?? []).map((crd, i) => ({
      // Objects built in code often leave out apiVersion and kind.
      crd: checkCRD({
        doc: { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", ...crd },
        where: `crds[${i}]`,
      }),
      where: `crds[${i}]`,
    })),
  ];
  const webhooks = options.webhookInstallOptions ? readWebhooks(options.webhookInstallOptions) : [];
  const converted = options.webhookInstallOptions
    ? conversionCRDs(
        crds.map((c) => c.crd),
        options.webhookInstallOptions,
      )
    : new Set<string>();

  const useExisting = options.useExistingCluster ?? process.env.USE_EXISTING_CLUSTER === "true";
  const nodes = options.cluster?.nodes ?? (useExisting ? undefined : nodesFromEnv());
  const clusterOptions = nodes ? { ...options.cluster, nodes } : undefined;
  if (clusterOptions && useExisting) {
    throw new EnvtestError("cluster mode starts its own control plane; it cannot use an existing cluster", {
      fix: "drop the cluster option or unset USE_EXISTING_CLUSTER",
    });
  }
  const extraDirs = new TempDirs();
  let plane: ControlPlane | undefined;
  let cluster: RunningCluster | undefined;
  let clusterMs = 0;
  let kubeConfig: KubeConfig;
  let kubeconfigPath: string;
  if (useExisting) {
    kubeConfig = await newKubeConfig();
    kubeConfig.loadFromDefault();
    kubeconfigPath = process.env.KUBECONFIG?.split(":")[0] || join(homedir(), ".kube", "config");
  } else {
    const where = options.binaryAssetsDirectory
      ? { binaryAssetsDirectory: options.binaryAssetsDirectory }
      : {};
    const binaries = resolveBinaries(where);
    const clusterBinaries = clusterOptions ? resolveClusterBinaries(where) : undefined;
    plane = await startControlPlaneWithRetries(binaries, options);
    if (clusterOptions && clusterBinaries) {
      const t = Date.now();
      const timeouts = startTimeouts(options);
      try {
        cluster = await startCluster(
          clusterBinaries,
          {
            rest: new RawClient(plane.kubeConfig),
            apiURL: plane.config.host,
            ...plane.pki,
            startTimeoutMs: timeouts.start,
            stopTimeoutMs: timeouts.stop,
            attachOutput:
              options.attachControlPlaneOutput ??
              process.env.KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT === "true",
          },
          clusterOptions,
        );
      } catch (err) {
        await plane.stop();
        throw err;
      }
      clusterMs = Date.now() - t;
    }
    kubeConfig = plane.kubeConfig;
    kubeconfigPath = plane.kubeconfigPath;
  }

  const stop = async () => {
    await cluster?.stop();
    await plane?.stop();
    await extraDirs.remove();
  };
  try {
    const rest = new RawClient(kubeConfig);
    // Serving certs first: CRDs converted by the local webhook server need its URL and CA.
    let installed: InstalledWebhooks | undefined;
    if (options.webhookInstallOptions) {
      const host = options.webhookInstallOptions.localServingHost ?? "127.0.0.1";
      const port = options.webhookInstallOptions.localServingPort ?? (await freePort(host));
      installed = prepareWebhookServing(host, port);
      extraDirs.add(installed.localServingCertDir);
      const serving = installed;
      for (const c of crds) {
        if (converted.has(crdName(c.crd))) c.crd = pointConversionAtLocalServer(c.crd, serving);
      }
    }
    const crdStart = Date.now();
    await installCRDs(rest, crds);
    await waitForCRDs(
      rest,
      crds.map((c) => c.crd),
      options.crdInstallTimeoutMs,
    );
    if (installed) await installWebhooks(rest, webhooks, installed);
    return {
      kubeConfig,
      kubeconfigPath,
      config: plane?.config,
      apiServerURL: plane?.config.host ?? kubeConfig.getCurrentCluster()?.server ?? "",
      etcdURL: plane?.etcdURL,
      binaries: plane?.binaries,
      crds: crds.map((c) => c.crd),
      webhookInstallOptions: installed,
      pids: [...(plane?.pids() ?? []), ...(cluster?.pids() ?? [])],
      cluster,
      crashed: Promise.race([
        plane?.crashed ?? new Promise<string>(() => {}),
        cluster?.crashed ?? new Promise<string>(() => {}),
      ]),
      timings: {
        ...(plane?.timings ?? { etcdMs: 0, apiServerMs: 0, defaultNamespaceMs: 0, attempts: 0 }),
        crdsMs: Date.now() - crdStart,
        clusterMs,
      },
      tempDirs: [...(plane?.dirs ?? []), ...(cluster?.dirs ?? []), ...extraDirs.list()],
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Temp dirs that are not a process's (webhook certs), removed at stop or at exit. */
class TempDirs implements Disposable {
  private readonly dirs: string[] = [];
  add(dir: string): void {
    if (this.dirs.length === 0) track(this);
    this.dirs.push(dir);
  }
  list(): string[] {
    return [...this.dirs];
  }
  async remove(): Promise<void> {
    untrack(this);
    await Promise.all(this.dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
  disposeNow(): void {
    for (const d of this.dirs) rmSync(d, { recursive: true, force: true });
  }
}

interface ControlPlane {
  kubeConfig: KubeConfig;
  kubeconfigPath: string;
  config: RestConfig;
  etcdURL: string;
  binaries: Binaries;
  pids(): number[];
  dirs: string[];
  crashed: Promise<string>;
  timings: Omit<StartTimings, "crdsMs" | "clusterMs">;
  /** The CAs and service-account key cluster mode's components are configured with. */
  pki: { servingCA: CertificateAuthority; clientCA: CertificateAuthority; serviceAccountKeyPath: string };
  stop(): Promise<void>;
}

function startTimeouts(options: EnvironmentOptions): { start: number; stop: number } {
  return {
    start:
      options.controlPlaneStartTimeoutMs ??
      parseGoDuration(process.env.KUBEBUILDER_CONTROLPLANE_START_TIMEOUT) ??
      20_000,
    stop:
      options.controlPlaneStopTimeoutMs ??
      parseGoDuration(process.env.KUBEBUILDER_CONTROLPLANE_STOP_TIMEOUT) ??
      20_000,
  };
}

async function startControlPlaneWithRetries(
  binaries: ReturnType<typeof resolveBinaries>,
  options: EnvironmentOptions,
): Promise<ControlPlane> {
  if (options.apiServerPort !== undefined && (await portInUse(options.apiServerPort))) {
    throw new EnvtestError(`port ${options.apiServerPort} on 127.0.0.1 is already in use`, {
      fix: "stop what listens there or choose another port",
    });
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const plane = await startControlPlane(binaries, options);
      plane.timings.attempts = attempt;
      return plane;
    } catch (err) {
      const clash = err instanceof ProcessStartError && /address already in use/i.test(err.output);
      // A fixed port that clashes will clash again; a free one may have been taken between probe and bind.
      if (clash && options.apiServerPort === undefined && attempt < START_ATTEMPTS) continue;
      if (err instanceof ProcessStartError) {
        throw new EnvtestError(`${err.message}: ${lastErrorLine(err.output)}`, {
          fix: "set KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT=true to see its full output",
          cause: err,
        });
      }
      throw err;
    }
  }
}

function lastErrorLine(output: string): string {
  const lines = output
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const err = [...lines].reverse().find((l) => /error|fail|invalid|unable|cannot/i.test(l));
  return (err ?? lines.at(-1) ?? "no output").slice(0, 400);
}

/** No default route means kube-apiserver cannot pick an advertise address by itself (controller-runtime#1749). */
function hasDefaultRoute(): boolean {
  try {
    return readFileSync("/proc/net/route", "utf8")
      .split("\n")
      .slice(1)
      .some((l) => l.split(/\s+/)[1] === "00000000");
  } catch {
    return true;
  }
}

async function startControlPlane(
  bins: ReturnType<typeof resolveBinaries>,
  options: EnvironmentOptions,
): Promise<ControlPlane> {
  const timeouts = startTimeouts(options);
  const attach =
    options.attachControlPlaneOutput ?? process.env.KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT === "true";
  const host = "127.0.0.1";
  const clientPort = await freePort(host);
  const peerPort = await freePort(host);
  const securePort = options.apiServerPort ?? (await freePort(host));
  // Made with no await before the processes owning them exist: those are tracked for the exit hook.
  const etcdDir = mkdtempSync(join(tmpdir(), "k8s_test_framework_"));
  const apiDir = mkdtempSync(join(tmpdir(), "k8s_test_framework_"));
  const etcdURL = `http://${host}:${clientPort}`;

  const etcd = new ControlPlaneProcess({
    name: "etcd",
    binary: bins.etcd,
    flags: {
      "advertise-client-urls": etcdURL,
      "data-dir": etcdDir,
      "listen-client-urls": etcdURL,
      "listen-peer-urls": `http://${host}:${peerPort}`,
      "unsafe-no-fsync": "true",
    },
    healthURL: `${etcdURL}/health`,
    dirs: [etcdDir],
    startTimeoutMs: timeouts.start,
    stopTimeoutMs: timeouts.stop,
    attachOutput: attach,
  });

  // Three CAs, as envtest: one for serving, one for client-certificate authn, one for service-account tokens.
  const servingCA = CertificateAuthority.create();
  const serving = servingCA.issue({ commonName: "localhost", hosts: ["localhost", host], usage: "server" });
  const clientCA = CertificateAuthority.create("envtest-client-ca");
  const admin = clientCA.issue({ commonName: ADMIN_USER, organizations: ADMIN_GROUPS, usage: "client" });
  const sa = serviceAccountSigningKey();
  const write = (name: string, data: string) => {
    const path = join(apiDir, name);
    writeFileSync(path, data, { mode: 0o600 });
    return path;
  };
  write("apiserver.crt", serving.cert);
  write("apiserver.key", serving.key);
  const apiURL = `https://${host}:${securePort}`;
  const saKeyPath = write("sa-signer.key", sa.key);
  const flags: Record<string, string> = {
    "allow-privileged": "true",
    "authorization-mode": "RBAC",
    "bind-address": host,
    "cert-dir": apiDir,
    "client-ca-file": write("client-cert-auth-ca.crt", clientCA.cert),
    "disable-admission-plugins": "ServiceAccount",
    "etcd-servers": etcdURL,
    "secure-port": String(securePort),
    "service-account-issuer": `${apiURL}/`,
    "service-account-key-file": write("sa-signer.pub", sa.publicKey),
    "service-account-signing-key-file": saKeyPath,
    "service-cluster-ip-range": "10.0.0.0/24",
    // No kube-proxy runs here, so a Service's ClusterIP leads nowhere: calls to a webhook (or aggregated
    // API) Service go to its endpoints, which is how a webhook served from this host is reached.
    "enable-aggregator-routing": "true",
    ...(hasDefaultRoute() ? {} : { "advertise-address": host }),
    ...options.apiServerFlags,
  };
  const apiserver = new ControlPlaneProcess({
    name: "kube-apiserver",
    binary: bins["kube-apiserver"],
    flags,
    healthURL: `${apiURL}/healthz`,
    tls: { ca: servingCA.cert, cert: admin.cert, key: admin.key },
    dirs: [apiDir],
    startTimeoutMs: timeouts.start,
    stopTimeoutMs: timeouts.stop,
    attachOutput: attach,
  });

  const stop = async () => {
    // kube-apiserver's graceful shutdown waits on etcd: once etcd is gone (it crashed, or a signal meant
    // for the whole control plane reached it first) it would only wait out the stop timeout.
    await apiserver.stop(etcd.ended());
    await etcd.stop();
  };
  const config: RestConfig = {
    host: apiURL,
    caData: servingCA.cert,
    certData: admin.cert,
    keyData: admin.key,
  };
  try {
    let t = Date.now();
    await etcd.start();
    const etcdMs = Date.now() - t;
    t = Date.now();
    await apiserver.start();
    const apiServerMs = Date.now() - t;
    const kubeconfigText = kubeconfigYAML(config);
    const kubeconfigPath = options.kubeconfigPath ?? join(apiDir, "kubeconfig");
    writeFileSync(kubeconfigPath, kubeconfigText, { mode: 0o600 });
    const kubeConfig = await newKubeConfig();
    kubeConfig.loadFromString(kubeconfigText);
    t = Date.now();
    await waitForDefaultNamespace(new RawClient(kubeConfig), timeouts.start);
    const defaultNamespaceMs = Date.now() - t;
    return {
      kubeConfig,
      kubeconfigPath,
      config,
      etcdURL,
      binaries: { etcd: bins.etcd, "kube-apiserver": bins["kube-apiserver"], kubectl: bins.kubectl ?? "" },
      pids: () => [etcd.pid, apiserver.pid].filter((p): p is number => p !== undefined),
      dirs: [etcdDir, apiDir],
      crashed: Promise.race([etcd.unexpectedExit(), apiserver.unexpectedExit()]),
      timings: { etcdMs, apiServerMs, defaultNamespaceMs, attempts: 1 },
      pki: { servingCA, clientCA, serviceAccountKeyPath: saKeyPath },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Loaded on use, so importing envtest (e.g. from the CLI's setup-envtest) stays fast. */
async function newKubeConfig(): Promise<KubeConfig> {
  const { KubeConfig } = await import("@kubernetes/client-node");
  return new KubeConfig();
}

async function waitForDefaultNamespace(rest: RawClient, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await rest.call("GET", "/api/v1/namespaces/default").catch(() => undefined);
    if (res?.status === 200) return;
    if (Date.now() > deadline) {
      throw new EnvtestError(
        `kube-apiserver is healthy but the default namespace did not appear within ${timeoutMs}ms`,
      );
    }
    await sleepUnlessAborted(50);
  }
}
