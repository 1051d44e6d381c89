/**
 * The GPUBudget story's moving parts, shared by `make demo` (e2e/demo/gpubudget-demo.ts) and the e2e
 * tests (e2e/gpubudget.test.ts): scaffold the operator with the built kbts CLI, build it, start a local
 * control plane with its CRD and Pod webhook, run operator processes, talk to them with kubectl.
 * Everything listens on and talks to 127.0.0.1 only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { parseAllDocuments, parse as parseYaml } from "yaml";
import { type ClusterOptions, type Environment, startEnvironment } from "../../runtime/src/envtest/index.js";
import { eventually } from "./eventually.js";
import { freePort } from "./free-port.js";
import { type NpmResult, npmInstall } from "./npm.js";
import { KBTS } from "./paths.js";
import { run, shellQuote } from "./run.js";

/** Prints a dot every few seconds while a long step runs, so the user sees progress. */
export async function withProgress<T>(label: string, work: Promise<T>, everyMs = 3000): Promise<T> {
  const started = Date.now();
  process.stdout.write(`${label} `);
  const timer = setInterval(() => process.stdout.write("."), everyMs);
  try {
    const result = await work;
    process.stdout.write(` done (${((Date.now() - started) / 1000).toFixed(1)}s)\n`);
    return result;
  } catch (err) {
    process.stdout.write(" failed\n");
    throw err;
  } finally {
    clearInterval(timer);
  }
}

export const SCAFFOLD_COMMANDS = [
  ["init", "--domain", "lab.example.com", "--repo", "lab.example.com/gpubudget", "--skip-install"],
  [
    "create",
    "api",
    "--group",
    "capacity",
    "--version",
    "v1alpha1",
    "--kind",
    "GPUBudget",
    "--plugins",
    "gpu-budget/v1-alpha",
  ],
] as const;

/**
 * `kbts init` + `kbts create api --plugins gpu-budget/v1-alpha` in `projectDir` (created, must be
 * empty), with the built CLI. buildProject then installs its dependencies (`npm install` from the
 * registry with an npm cache of its own that starts empty, e2e/support/npm.ts, unless the caller passes
 * another way), then runs `kbts manifests`, `kbts generate` and `npm run build`.
 */
export async function scaffoldProject(projectDir: string, options: { show?: boolean } = {}): Promise<void> {
  mkdirSync(projectDir, { recursive: true });
  for (const args of SCAFFOLD_COMMANDS)
    await run("node", [KBTS, ...args], { cwd: projectDir, show: options.show });
}

export async function buildProject(
  projectDir: string,
  options: {
    show?: boolean;
    /** How the dependencies install; npmInstall by default (e2e files pass installDependencies). */
    install?: (projectDir: string) => Promise<NpmResult>;
  } = {},
): Promise<void> {
  const show = async <T>(label: string, work: Promise<T>) =>
    options.show ? withProgress(label, work) : work;
  const step = (label: string, file: string, args: string[]) =>
    show(label, run(file, args, { cwd: projectDir }));
  const install = await show(
    "npm install (registry, empty npm cache)",
    (options.install ?? npmInstall)(projectDir),
  );
  if (install.exitCode !== 0)
    throw new Error(`npm install exited ${install.exitCode}:\n${install.all ?? ""}`);
  await step("kbts manifests (CRD, RBAC, webhook configuration)", "npx", [
    "--no-install",
    "kbts",
    "manifests",
  ]);
  await step("kbts generate (Kind descriptors)", "npx", ["--no-install", "kbts", "generate"]);
  await step("npm run build", "npm", ["run", "build"]);
}

type Doc = Record<string, unknown>;

/** The patches config/webhook's kustomization merges into the webhook configurations (GPUBudget's). */
const WEBHOOK_PATCHES = ["pod_namespace_selector_patch.yaml", "pod_queue_selector_patch.yaml"];

/**
 * The project's webhook configurations of one kind as `kubectl kustomize config/webhook` would write
 * them: config/webhook/manifests.yaml with the namespaceSelector and matchConditions of the patches in
 * WEBHOOK_PATCHES merged in by configuration kind and webhook name (the strategic-merge key of `webhooks`).
 */
export function webhookConfigurations(
  projectDir: string,
  kind: "ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration" = "ValidatingWebhookConfiguration",
): Doc[] {
  // A project without admission webhooks has no manifests.yaml: nothing to install.
  const manifestsFile = join(projectDir, "config/webhook/manifests.yaml");
  if (!existsSync(manifestsFile)) return [];
  const manifests = parseAllDocuments(readFileSync(manifestsFile, "utf8"))
    .map((d) => d.toJS() as Doc)
    .filter((d) => d?.kind === kind);
  for (const file of WEBHOOK_PATCHES) {
    const patchFile = join(projectDir, "config/webhook", file);
    if (!existsSync(patchFile)) continue;
    const patch = parseYaml(readFileSync(patchFile, "utf8")) as { kind?: string; webhooks: Doc[] };
    if (patch.kind !== kind) continue;
    for (const doc of manifests) {
      for (const hook of (doc.webhooks as Doc[]) ?? []) {
        const p = patch.webhooks.find((w) => w.name === hook.name);
        if (p)
          Object.assign(hook, { namespaceSelector: p.namespaceSelector, matchConditions: p.matchConditions });
      }
    }
  }
  return manifests;
}

/**
 * The project's ValidatingAdmissionPolicies and their bindings in config/webhook (the GPUBudget
 * operator's budget-full policy), which config/webhook's kustomization installs with the webhook.
 */
export function admissionPolicies(projectDir: string): string[] {
  const dir = join(projectDir, "config/webhook");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .flatMap((f) => parseAllDocuments(readFileSync(join(dir, f), "utf8")).map((d) => d.toJS() as Doc))
    .filter((d) => d?.kind === "ValidatingAdmissionPolicy" || d?.kind === "ValidatingAdmissionPolicyBinding")
    .map((d) => JSON.stringify(d));
}

export interface ControlPlane {
  env: Environment;
  kubectl(
    args: string[],
    options?: { show?: boolean; reject?: boolean; input?: string },
  ): Promise<{ stdout: string; all?: string; exitCode?: number }>;
  stop(): Promise<void>;
}

/**
 * etcd + kube-apiserver with the project's CRDs and its Pod webhook pointed at 127.0.0.1; with `cluster`,
 * also the scheduler, controller manager and kwok's simulated nodes (envtest's cluster mode).
 */
export async function startControlPlane(
  projectDir: string,
  options: { cluster?: ClusterOptions; apiServerFlags?: Record<string, string> } = {},
): Promise<ControlPlane> {
  const env = await startEnvironment({
    ...(options.cluster ? { cluster: options.cluster } : {}),
    ...(options.apiServerFlags ? { apiServerFlags: options.apiServerFlags } : {}),
    crdDirectoryPaths: [join(projectDir, "config/crd/bases")],
    errorIfPathMissing: true,
    webhookInstallOptions: {
      validatingWebhooks: webhookConfigurations(projectDir),
      mutatingWebhooks: webhookConfigurations(projectDir, "MutatingWebhookConfiguration"),
      localServingHost: "127.0.0.1",
    },
  });
  const kubectlBin = env.binaries?.kubectl ?? "kubectl";
  const policies = admissionPolicies(projectDir);
  if (policies.length > 0) {
    const applied = await execa(kubectlBin, ["apply", "-f", "-"], {
      env: { KUBECONFIG: env.kubeconfigPath },
      all: true,
      reject: false,
      input: policies.join("\n"),
    });
    if (applied.exitCode !== 0) {
      await env.stop();
      throw new Error(`kubectl apply of config/webhook's admission policies failed:\n${applied.all ?? ""}`);
    }
  }
  return {
    env,
    async kubectl(args, options = {}) {
      if (options.show) process.stdout.write(`$ kubectl ${args.map(shellQuote).join(" ")}\n`);
      const result = await execa(kubectlBin, args, {
        env: { KUBECONFIG: env.kubeconfigPath },
        all: true,
        reject: false,
        input: options.input,
      });
      if (options.show && result.all) process.stdout.write(`${result.all}\n`);
      if (result.exitCode !== 0 && options.reject !== false) {
        throw new Error(`kubectl ${args.join(" ")} exited ${result.exitCode}:\n${result.all ?? ""}`);
      }
      return { stdout: result.stdout, all: result.all, exitCode: result.exitCode };
    },
    stop: () => env.stop(),
  };
}

export interface Operator {
  readonly name: string;
  readonly metricsPort: number;
  /** The port its webhook server listens on (the control plane's when serveWebhook, else a free one). */
  readonly webhookPort: number;
  /** The port of its health probes (/healthz, /readyz). */
  readonly probePort: number;
  readonly process: ChildProcess;
  readonly logFile: string;
  /** From spawning the process to its first /readyz 200 (ms; /readyz polled every 20 ms). */
  readonly readyMs: number;
  metrics(): Promise<string>;
  /** SIGTERM and wait (graceful); `kill()` is SIGKILL (a crash). */
  stop(): Promise<void>;
  kill(): Promise<void>;
  exited(): boolean;
}

export interface OperatorOptions {
  name?: string;
  leaderElect?: boolean;
  /** Serve the webhook on the port the control plane calls (only one replica can). */
  serveWebhook?: boolean;
  extraArgs?: string[];
  logDir: string;
  /**
   * Run the manager with this command and the same flags instead of `node dist/cmd/main.js`: the
   * production build, [node, dist/manager/manager.mjs] (make build-bundle), or the Kubebuilder (Go)
   * GPUBudget operator of bench/gpubudget --compare-go, [its binary], whose flags have the same names.
   */
  command?: string[];
  /** More environment for the operator (e.g. a deploy-image controller's <KIND>_IMAGE). */
  env?: Record<string, string>;
}

/** Runs the built manager (dist/cmd/main.js) against the control plane, logs to a file. */
export async function startOperator(
  projectDir: string,
  cp: ControlPlane,
  options: OperatorOptions,
): Promise<Operator> {
  const name = options.name ?? "operator";
  const metricsPort = await freePort();
  const probePort = await freePort();
  const serving = cp.env.webhookInstallOptions;
  const webhookPort = options.serveWebhook !== false && serving ? serving.localServingPort : await freePort();
  const args = [
    "dist/cmd/main.js",
    `--metrics-bind-address=127.0.0.1:${metricsPort}`,
    "--metrics-secure=false",
    `--health-probe-bind-address=127.0.0.1:${probePort}`,
    `--webhook-port=${webhookPort}`,
    `--leader-elect=${options.leaderElect === true}`,
    "--zap-devel=false",
    ...(serving ? [`--webhook-cert-path=${serving.localServingCertDir}`] : []),
    ...(options.extraArgs ?? []),
  ];
  mkdirSync(options.logDir, { recursive: true });
  const logFile = join(options.logDir, `${name}.log`);
  const log = createWriteStream(logFile);
  const [file, ...commandArgs] = options.command ? [...options.command, ...args.slice(1)] : ["node", ...args];
  const spawnedAt = performance.now();
  const child = spawn(file as string, commandArgs, {
    cwd: projectDir,
    env: { ...process.env, KUBECONFIG: cp.env.kubeconfigPath, ENABLE_WEBHOOKS: "true", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code) => {
      exitCode = code;
      resolve();
    }),
  );
  let readyMs = 0;
  const operator: Operator = {
    name,
    get readyMs() {
      return readyMs;
    },
    metricsPort,
    webhookPort,
    probePort,
    process: child,
    logFile,
    async metrics() {
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      return res.text();
    },
    async stop() {
      if (exitCode === undefined) child.kill("SIGTERM");
      await exited;
    },
    async kill() {
      if (exitCode === undefined) child.kill("SIGKILL");
      await exited;
    },
    exited: () => exitCode !== undefined,
  };
  // Ready when the probe answers (the caches synced and the webhook server has its certificate).
  await eventually(
    async () => {
      if (exitCode !== undefined) {
        throw new Error(`${name} exited with ${exitCode}:\n${readFileSync(logFile, "utf8").slice(-4000)}`);
      }
      const res = await fetch(`http://127.0.0.1:${probePort}/readyz`);
      if (res.status !== 200) throw new Error(`${name} not ready: ${res.status}`);
      readyMs = performance.now() - spawnedAt;
    },
    60_000,
    20,
  ).catch(async (err) => {
    await operator.kill();
    throw err;
  });
  return operator;
}

/** The series of `name` in a Prometheus text exposition whose labels include `labels`, as values. */
function metricValues(text: string, name: string, labels: Record<string, string>): number[] {
  const values: number[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const ok = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (ok) values.push(Number(line.slice(line.lastIndexOf(" ") + 1)));
  }
  return values;
}

/** The value of one series in a Prometheus text exposition, or undefined when absent. */
export function metricValue(text: string, name: string, labels: Record<string, string>): number | undefined {
  return metricValues(text, name, labels)[0];
}

/** The sum of every series of `name` (0 when there is none). */
export function sumMetric(text: string, name: string, labels: Record<string, string> = {}): number {
  return metricValues(text, name, labels).reduce((a, b) => a + b, 0);
}

export function gpuPodManifest(
  namespace: string,
  name: string,
  gpus: number,
  extra: { labels?: Record<string, string>; initGPUs?: number; resource?: string } = {},
): string {
  const resource = extra.resource ?? "nvidia.com/gpu";
  return JSON.stringify({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace, labels: extra.labels },
    spec: {
      restartPolicy: "Never",
      initContainers: extra.initGPUs
        ? [
            {
              name: "warmup",
              image: "busybox",
              command: ["true"],
              resources: { limits: { [resource]: String(extra.initGPUs) } },
            },
          ]
        : undefined,
      containers: [
        {
          name: "main",
          image: "busybox",
          command: ["sleep", "3600"],
          resources: { limits: { [resource]: String(gpus) } },
        },
      ],
    },
  });
}

export function budgetManifest(
  namespace: string,
  name: string,
  maxGPUs: number,
  spec: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    apiVersion: "capacity.lab.example.com/v1alpha1",
    kind: "GPUBudget",
    metadata: { name, namespace },
    spec: { maxGPUs, ...spec },
  });
}
