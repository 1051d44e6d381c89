/**
 * The GPUBudget operator end to end: scaffolded by the built kbts CLI (`init` + `create api --plugins
 * gpu-budget/v1-alpha`, no hand edits), built, its own tests run, then run as real processes against a
 * local control plane with its CRD and Pod webhook. A real Prometheus (Debian's package, from `make tools`) scrapes it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  budgetManifest,
  buildProject,
  type ControlPlane,
  eventually,
  freePort,
  gpuPodManifest,
  metricValue,
  type Operator,
  scaffoldProject,
  startControlPlane,
  startOperator,
} from "./demo/lib.js";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-gpubudget-"));
// GPUBUDGET_PROJECT reuses a scaffolded, built project (faster iterations); by default it is made here.
const reuse = process.env.GPUBUDGET_PROJECT;
const project = reuse ?? join(work, "gpubudget");
const logDir = join(work, "logs");
let cp: ControlPlane;
const operators: Operator[] = [];

async function operator(
  name: string,
  options: { leaderElect?: boolean; serveWebhook?: boolean } = {},
): Promise<Operator> {
  const op = await startOperator(project, cp, { name, logDir, ...options });
  operators.push(op);
  return op;
}

const kubectl = (args: string[], input?: string) => cp.kubectl(args, { input });
const apply = (manifest: string) => kubectl(["apply", "-f", "-"], manifest);

async function status(
  namespace: string,
  name: string,
): Promise<{ allocated?: number; podCount?: number; ready?: string; reason?: string; message?: string }> {
  const out = await kubectl(["get", "gb", name, "-n", namespace, "-o", "json"]);
  const b = JSON.parse(out.stdout) as {
    status?: {
      allocatedGPUs?: number;
      podCount?: number;
      conditions?: { type: string; status: string; reason: string; message: string }[];
    };
  };
  const ready = b.status?.conditions?.find((c) => c.type === "Ready");
  return {
    allocated: b.status?.allocatedGPUs,
    podCount: b.status?.podCount,
    ready: ready?.status,
    reason: ready?.reason,
    message: ready?.message,
  };
}

async function expectStatus(
  namespace: string,
  name: string,
  want: Partial<Awaited<ReturnType<typeof status>>>,
  timeoutMs = 30_000,
) {
  await eventually(async () => expect(await status(namespace, name)).toMatchObject(want), timeoutMs);
}

async function namespace(name: string): Promise<string> {
  await kubectl(["create", "namespace", name]);
  return name;
}

beforeAll(async () => {
  if (!reuse) {
    await scaffoldProject(project);
    await buildProject(project);
  }
  cp = await startControlPlane(project);
});

afterAll(async () => {
  for (const op of operators) await op.kill().catch(() => undefined);
  await cp?.stop();
  if (process.env.KEEP_E2E !== "true") rmSync(work, { recursive: true, force: true });
});

describe("the scaffolded GPUBudget project", () => {
  it("was written with no hand edits and records the plugin in PROJECT", () => {
    const projectFile = readFileSync(join(project, "PROJECT"), "utf8");
    expect(projectFile).toContain("gpu-budget.kbts.dev/v1-alpha");
    expect(readFileSync(join(project, "config/webhook/manifests.yaml"), "utf8")).toMatch(
      /failurePolicy: Ignore/,
    );
    expect(readFileSync(join(project, "config/manager/manager.yaml"), "utf8")).toContain("--leader-elect");
  });

  it("patches the webhook's namespaceSelector in through kustomize", async () => {
    const out = await kubectl(["kustomize", join(project, "config/default")]);
    expect(out.stdout).toMatch(
      /name: vpod-v1.kb.io\n\s+namespaceSelector:\n\s+matchExpressions:\n\s+- key: kubernetes.io\/metadata.name\n\s+operator: NotIn\n\s+values:\n\s+- kube-system\n\s+- gpubudget-system/,
    );
  });

  it("passes its own unit and integration tests", async () => {
    const result = await execa("npm", ["test"], {
      cwd: project,
      all: true,
      reject: false,
      env: { KUBEBUILDER_ASSETS: process.env.KUBEBUILDER_ASSETS ?? "" },
    });
    expect(result.exitCode, result.all).toBe(0);
  });

  it("ships Prometheus rules and a dashboard that promtool accepts", async () => {
    const result = await execa("make", ["check-rules"], { cwd: project, all: true, reject: false });
    expect(result.exitCode, result.all).toBe(0);
    expect(result.all).toContain("SUCCESS");
  });
});

describe("one operator", () => {
  let op: Operator;
  beforeAll(async () => {
    op = await operator("single");
  });
  afterAll(async () => {
    await op.stop();
  });

  it("plays the demo story: exceeded, recovered, then a Deny budget refuses a pod", async () => {
    await namespace("team-a");
    await apply(budgetManifest("team-a", "team-a-budget", 4));
    await apply(gpuPodManifest("team-a", "g1", 6));
    await expectStatus("team-a", "team-a-budget", {
      allocated: 6,
      podCount: 1,
      ready: "False",
      reason: "BudgetExceeded",
      message: "6/4 GPUs",
    });
    const table = await kubectl(["get", "gb", "-n", "team-a"]);
    expect(table.stdout).toMatch(/NAME\s+MAX\s+ALLOCATED\s+READY\s+AGE/);
    expect(table.stdout).toMatch(/team-a-budget\s+4\s+6\s+False/);
    await eventually(async () => {
      const events = await kubectl(["get", "events", "-n", "team-a", "-o", "json"]);
      expect(events.stdout).toContain("BudgetExceeded");
    });

    await kubectl([
      "patch",
      "pod",
      "g1",
      "-n",
      "team-a",
      "--subresource=status",
      "--type=merge",
      "-p",
      '{"status":{"phase":"Succeeded"}}',
    ]);
    await expectStatus("team-a", "team-a-budget", {
      allocated: 0,
      podCount: 0,
      ready: "True",
      reason: "WithinBudget",
      message: "0/4 GPUs",
    });

    await kubectl([
      "patch",
      "gb",
      "team-a-budget",
      "-n",
      "team-a",
      "--type=merge",
      "-p",
      '{"spec":{"enforcement":"Deny"}}',
    ]);
    await eventually(async () => {
      const res = await cp.kubectl(["apply", "-f", "-"], {
        input: gpuPodManifest("team-a", "g2", 6),
        reject: false,
      });
      if (res.exitCode === 0) await kubectl(["delete", "pod", "g2", "-n", "team-a", "--wait=false"]);
      expect(res.exitCode).not.toBe(0);
      expect(res.all).toContain(
        "GPUBudget team-a/team-a-budget allows 4 nvidia.com/gpu; 0 allocated, this pod asks for 6 (6/4)",
      );
    });
    await apply(gpuPodManifest("team-a", "fits", 4));
  });

  it("counts only the pods a selector picks", async () => {
    await namespace("sel");
    await apply(budgetManifest("sel", "ml", 8, { selector: { matchLabels: { team: "ml" } } }));
    await apply(gpuPodManifest("sel", "train", 2, { labels: { team: "ml" } }));
    await apply(gpuPodManifest("sel", "web", 3, { labels: { team: "web" } }));
    await expectStatus("sel", "ml", { allocated: 2, podCount: 1 });
  });

  it("counts an init container larger than the containers by the scheduler's rule", async () => {
    await namespace("init");
    await apply(budgetManifest("init", "b", 8));
    await apply(gpuPodManifest("init", "p", 1, { initGPUs: 3 }));
    await expectStatus("init", "b", { allocated: 3, podCount: 1 });
  });

  it("leaves a budget in another namespace untouched", async () => {
    await namespace("quiet");
    await apply(budgetManifest("quiet", "b", 2));
    await expectStatus("quiet", "b", { allocated: 0, ready: "True" });
    const before = JSON.parse((await kubectl(["get", "gb", "b", "-n", "quiet", "-o", "json"])).stdout)
      .metadata.resourceVersion;
    await namespace("busy");
    await apply(budgetManifest("busy", "b", 2));
    await apply(gpuPodManifest("busy", "p", 5));
    await expectStatus("busy", "b", { allocated: 5, ready: "False" });
    expect(await status("quiet", "b")).toMatchObject({ allocated: 0, ready: "True" });
    const after = JSON.parse((await kubectl(["get", "gb", "b", "-n", "quiet", "-o", "json"])).stdout).metadata
      .resourceVersion;
    expect(after).toBe(before);
  });

  it("serves budget metrics and removes them when the budget is deleted", async () => {
    await namespace("gone");
    await apply(budgetManifest("gone", "b", 3));
    await apply(gpuPodManifest("gone", "p", 1));
    await eventually(async () => {
      const text = await op.metrics();
      expect(metricValue(text, "gpubudget_allocated_gpus", { namespace: "gone", name: "b" })).toBe(1);
      expect(metricValue(text, "gpubudget_max_gpus", { namespace: "gone", name: "b" })).toBe(3);
      expect(metricValue(text, "gpubudget_exceeded", { namespace: "gone", name: "b" })).toBe(0);
    });
    await kubectl(["delete", "gb", "b", "-n", "gone"]);
    await eventually(async () => {
      const text = await op.metrics();
      expect(metricValue(text, "gpubudget_max_gpus", { namespace: "gone", name: "b" })).toBeUndefined();
      expect(metricValue(text, "gpubudget_allocated_gpus", { namespace: "gone", name: "b" })).toBeUndefined();
    });
  });

  it("fires GPUBudgetExceeded in a real Prometheus scraping the operator", async () => {
    // Debian's prometheus package, installed by `make tools` before any test runs.
    const port = await freePort();
    const dir = join(work, "prometheus");
    mkdirSync(dir, { recursive: true });
    // The shipped rules, with the alert's `for: 5m` shortened to 2s so the test need not wait 5 minutes.
    const rules = readFileSync(join(project, "config/prometheus/gpubudget_rules.yaml"), "utf8");
    const spec = rules
      .slice(rules.indexOf("\nspec:\n") + "\nspec:\n".length)
      .split("\n")
      .map((l) => l.replace(/^ {2}/, ""))
      .join("\n")
      .replace(/for: 5m/g, "for: 2s");
    writeFileSync(join(dir, "rules.yaml"), spec);
    writeFileSync(
      join(dir, "prometheus.yml"),
      [
        "global: { scrape_interval: 1s, evaluation_interval: 1s }",
        "rule_files: [rules.yaml]",
        "scrape_configs:",
        "- job_name: gpubudget",
        `  static_configs: [{ targets: ["127.0.0.1:${op.metricsPort}"] }]`,
        "",
      ].join("\n"),
    );
    const prom: ChildProcess = spawn(
      "prometheus",
      [
        `--config.file=${join(dir, "prometheus.yml")}`,
        `--storage.tsdb.path=${join(dir, "data")}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: "ignore" },
    );
    let spawnError: Error | undefined;
    prom.once("error", (err) => {
      spawnError = err; // e.g. ENOENT: prometheus is installed by `make tools`, not by the tests
    });
    try {
      // team-a is within budget now; "busy" (5/2) has been exceeded since the previous test.
      await eventually(
        async () => {
          if (spawnError)
            throw new Error(
              `prometheus could not start (run make tools to install it): ${spawnError.message}`,
            );
          const res = await fetch(`http://127.0.0.1:${port}/api/v1/alerts`);
          const body = (await res.json()) as {
            data: { alerts: { labels: Record<string, string>; state: string }[] };
          };
          const firing = body.data.alerts.filter(
            (a) => a.labels.alertname === "GPUBudgetExceeded" && a.state === "firing",
          );
          expect(firing.map((a) => `${a.labels.namespace}/${a.labels.name}`)).toContain("busy/b");
          expect(firing.map((a) => `${a.labels.namespace}/${a.labels.name}`)).not.toContain("quiet/b");
        },
        60_000,
        500,
      );
    } finally {
      prom.kill("SIGTERM");
      if (!spawnError)
        await new Promise((resolve) =>
          prom.exitCode !== null ? resolve(undefined) : prom.once("exit", resolve),
        );
    }
  });
});

describe("two replicas with leader election", () => {
  it("elect one leader, and the other takes over when the leader is killed", async () => {
    const a = await operator("replica-a", { leaderElect: true, serveWebhook: true });
    const b = await operator("replica-b", { leaderElect: true, serveWebhook: false });
    const leaderStatus = async (op: Operator) =>
      metricValue(await op.metrics(), "leader_election_master_status", {}) ?? 0;
    let leader: Operator | undefined;
    await eventually(async () => {
      const statuses = [await leaderStatus(a), await leaderStatus(b)];
      expect(statuses.sort()).toEqual([0, 1]);
      leader = (await leaderStatus(a)) === 1 ? a : b;
    }, 60_000);
    const follower = leader === a ? b : a;

    await namespace("ha");
    await apply(budgetManifest("ha", "b", 4));
    await apply(gpuPodManifest("ha", "p1", 1));
    await expectStatus("ha", "b", { allocated: 1 });

    await leader?.kill(); // a crash: the lease is not released, the follower waits for it to expire
    await apply(gpuPodManifest("ha", "p2", 2));
    await eventually(async () => expect(await leaderStatus(follower)).toBe(1), 60_000);
    await expectStatus("ha", "b", { allocated: 3 }, 60_000);
    await follower.stop();
  });
});

describe("with the operator stopped", () => {
  it("pods are still admitted (failurePolicy: Ignore), even past a Deny budget", async () => {
    for (const op of operators) await op.stop();
    await namespace("down");
    await apply(budgetManifest("down", "cap", 1, { enforcement: "Deny" }));
    const res = await cp.kubectl(["apply", "-f", "-"], {
      input: gpuPodManifest("down", "big", 8),
      reject: false,
    });
    expect(res.exitCode, res.all).toBe(0);
    await kubectl(["get", "pod", "big", "-n", "down"]);
  });
});
