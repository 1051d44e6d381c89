/**
 * The GPUBudget operator against real workloads, on envtest's cluster mode (one cluster for the file):
 * four simulated nodes with 8 GPUs each, the scheduler placing pods, the controller manager running
 * Deployments, ReplicaSets, Jobs, namespace deletion and node lifecycle, and kwok running the pods.
 * The project is scaffolded by the built CLI with no hand edits, as in gpubudget.test.ts. The controller
 * manager also runs the resourceclaim controller, and DRA's ResourceSlices stand for the nodes' GPUs, so
 * the scheduler allocates ResourceClaims (no driver: kwok runs the pods).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLUSTER_CONTROLLERS } from "../runtime/src/envtest/index.js";
import { eventually } from "./support/eventually.js";
import {
  budgetStatus,
  deployedObjects,
  expectBudgetStatus,
  expectEnforcing,
  expectFullLabel,
  QUEUE_GATE,
} from "./support/gpubudget.js";
import { installDependencies } from "./support/installs.js";
import {
  budgetManifest,
  buildProject,
  type ControlPlane,
  metricValue,
  type Operator,
  scaffoldProject,
  startControlPlane,
  startOperator,
} from "./support/operator.js";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-gpubudget-cluster-"));
const reuse = process.env.GPUBUDGET_PROJECT;
const project = reuse ?? join(work, "gpubudget");
const NODES = ["gpu-0", "gpu-1", "gpu-2", "gpu-3"];
let cp: ControlPlane;
let op: Operator;

const kubectl = (args: string[], input?: string) => cp.kubectl(args, { input });
const apply = (manifest: unknown) => kubectl(["apply", "-f", "-"], JSON.stringify(manifest));
const status = (ns: string, name: string) => budgetStatus(kubectl, ns, name);
const expectStatus = (
  ns: string,
  name: string,
  want: Parameters<typeof expectBudgetStatus>[3],
  timeoutMs?: number,
) => expectBudgetStatus(kubectl, ns, name, want, timeoutMs);

async function namespace(name: string): Promise<string> {
  await kubectl(["create", "namespace", name]);
  return name;
}

/** A bare pod of gpuTemplate's shape, named. */
function gpuPod(
  ns: string,
  name: string,
  gpus: number,
  spec: Record<string, unknown> = {},
  resource = "nvidia.com/gpu",
) {
  const t = gpuTemplate(name, gpus, spec, resource);
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: ns, labels: t.metadata.labels },
    spec: t.spec,
  };
}

/** A pod template asking for GPUs (limits; the API server copies them into requests). */
function gpuTemplate(
  app: string,
  gpus: number,
  spec: Record<string, unknown> = {},
  resource = "nvidia.com/gpu",
) {
  return {
    metadata: { labels: { app } },
    spec: {
      terminationGracePeriodSeconds: 5,
      containers: [
        {
          name: "main",
          image: "registry.k8s.io/pause:3.10",
          resources: { limits: { [resource]: String(gpus) } },
        },
      ],
      ...spec,
    },
  };
}

interface PodView {
  metadata: { name: string; deletionTimestamp?: string; deletionGracePeriodSeconds?: number };
  spec: { nodeName?: string; containers: { resources?: { limits?: Record<string, string> } }[] };
  status: { phase?: string };
}

async function pods(ns: string, selector?: string): Promise<PodView[]> {
  const out = await kubectl(["get", "pods", "-n", ns, "-o", "json", ...(selector ? ["-l", selector] : [])]);
  return (JSON.parse(out.stdout) as { items: PodView[] }).items;
}

async function events(
  ns: string,
  object: string,
): Promise<{ reason: string; message: string; count?: number }[]> {
  const out = await kubectl([
    "get",
    "events",
    "-n",
    ns,
    "--field-selector",
    `involvedObject.name=${object}`,
    "-o",
    "json",
  ]);
  return (JSON.parse(out.stdout) as { items: { reason: string; message: string; count?: number }[] }).items;
}

beforeAll(async () => {
  if (!reuse) {
    await scaffoldProject(project);
    await buildProject(project, { install: installDependencies });
  }
  cp = await startControlPlane(project, {
    cluster: {
      nodes: NODES.map((name) => ({ name, capacity: { "nvidia.com/gpu": "8" } })),
      nodeMonitorGracePeriodSeconds: 8,
      // Creates the ResourceClaims of pods' ResourceClaimTemplates (Dynamic Resource Allocation).
      controllerManagerFlags: { controllers: [...CLUSTER_CONTROLLERS, "resourceclaim-controller"].join(",") },
    },
  });
  op = await startOperator(project, cp, { name: "cluster", logDir: join(work, "logs") });
});

afterAll(async () => {
  await op?.kill().catch(() => undefined);
  await cp?.stop();
  if (process.env.KEEP_E2E !== "true") rmSync(work, { recursive: true, force: true });
});

describe("GPUBudget on a cluster that schedules", () => {
  it("follows a Deployment of 3 × 2 GPUs as it scales to 5 and back to 1", async () => {
    const ns = await namespace("deploy");
    await kubectl(["apply", "-f", "-"], budgetManifest(ns, "b", 16));
    await apply({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "train", namespace: ns },
      spec: { replicas: 3, selector: { matchLabels: { app: "train" } }, template: gpuTemplate("train", 2) },
    });
    await eventually(async () => {
      const running = (await pods(ns, "app=train")).filter((p) => p.status.phase === "Running");
      expect(running).toHaveLength(3);
    }, 60_000);
    await expectStatus(ns, "b", { allocated: 6, podCount: 3, ready: "True" });

    await kubectl(["scale", "deployment", "train", "-n", ns, "--replicas=5"]);
    await expectStatus(ns, "b", { allocated: 10, podCount: 5 }, 60_000);
    await kubectl(["scale", "deployment", "train", "-n", ns, "--replicas=1"]);
    await expectStatus(ns, "b", { allocated: 2, podCount: 1, ready: "True" }, 60_000);
  });

  it("a ReplicaSet scaled into a Deny budget leaves the extra pods uncreated, and its events say why", async () => {
    const ns = await namespace("rs");
    await kubectl(["apply", "-f", "-"], budgetManifest(ns, "cap", 4, { enforcement: "Deny" }));
    // Its namespace is labelled: from now on kube-apiserver sends the namespace's GPU pods to the webhook.
    await expectEnforcing(kubectl, ns, "cap");
    await apply({
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      metadata: { name: "infer", namespace: ns },
      spec: { replicas: 2, selector: { matchLabels: { app: "infer" } }, template: gpuTemplate("infer", 2) },
    });
    // The budget is full before the scale-up (its status says so), so kube-apiserver refuses every extra
    // pod with the budget-full policy, without a webhook call (a scale-up that only partly fits goes to
    // the webhook: the burst race the Job test below is about).
    await expectStatus(ns, "cap", { allocated: 4, podCount: 2 });
    await expectFullLabel(kubectl, ns);
    await kubectl(["scale", "replicaset", "infer", "-n", ns, "--replicas=4"]);
    await eventually(async () => {
      const refusals = (await events(ns, "infer")).filter((e) => e.reason === "FailedCreate");
      expect(refusals.map((e) => e.message).join("\n")).toMatch(
        /ValidatingAdmissionPolicy '[^']*budget-full' with binding '[^']*' denied request: GPUBudget rs\/cap allows 4 GPUs and 4 are in use/,
      );
    }, 60_000);
    expect(await pods(ns, "app=infer")).toHaveLength(2);
    const rs = JSON.parse((await kubectl(["get", "replicaset", "infer", "-n", ns, "-o", "json"])).stdout) as {
      status: { replicas: number; conditions?: { type: string; status: string }[] };
    };
    expect(rs.status.replicas).toBe(2);
    expect(rs.status.conditions?.find((c) => c.type === "ReplicaFailure")?.status).toBe("True");
    await expectStatus(ns, "cap", { allocated: 4, podCount: 2 });
  });

  it("counts pods the scheduler cannot place, Pending, as ResourceQuota counts them", async () => {
    const ns = await namespace("pending");
    await kubectl(["apply", "-f", "-"], budgetManifest(ns, "b", 32));
    await apply({
      apiVersion: "v1",
      kind: "ResourceQuota",
      metadata: { name: "gpus", namespace: ns },
      spec: { hard: { "requests.nvidia.com/gpu": "100" } },
    });
    // No node has 9 GPUs: the scheduler leaves it Pending and says why.
    await apply(gpuPod(ns, "huge", 9));
    await apply(gpuPod(ns, "small", 1));
    await eventually(async () => {
      const failed = (await events(ns, "huge")).find((e) => e.reason === "FailedScheduling");
      expect(failed?.message).toContain("Insufficient nvidia.com/gpu");
    });
    expect((await pods(ns)).find((p) => p.metadata.name === "huge")?.status.phase).toBe("Pending");
    await expectStatus(ns, "b", { allocated: 10, podCount: 2 });
    const quota = JSON.parse(
      (await kubectl(["get", "resourcequota", "gpus", "-n", ns, "-o", "json"])).stdout,
    ) as {
      status: { used: Record<string, string> };
    };
    expect(quota.status.used["requests.nvidia.com/gpu"]).toBe("10");
  });

  // The enforcement race (issue 12, "Bursts"): pods the Job controller creates in one batch must see each
  // other's GPUs, which a cache-only admission does not; the budget's reservations close it. Issue 12's
  // acceptance: a Job with parallelism 50 against a Deny budget of 10 gets exactly 10 pods.
  it("a Job with parallelism 50 against a Deny budget of 10 gets exactly 10 pods admitted", async () => {
    const ns = await namespace("burst");
    await kubectl(["apply", "-f", "-"], budgetManifest(ns, "cap", 10, { enforcement: "Deny" }));
    await expectStatus(ns, "cap", { allocated: 0 });
    await expectEnforcing(kubectl, ns, "cap");
    await apply({
      apiVersion: "batch/v1",
      kind: "Job",
      metadata: { name: "sweep", namespace: ns },
      spec: {
        parallelism: 50,
        completions: 50,
        backoffLimit: 1000,
        // Pending until the test is done, so every admitted pod stays counted: a node selector none matches.
        template: gpuTemplate("sweep", 1, { restartPolicy: "Never", nodeSelector: { pool: "none" } }),
      },
    });
    // The Job controller creates in growing batches and retries refused ones: it fills the budget to
    // exactly its cap, and its refusals name the budget.
    await eventually(async () => {
      expect((await pods(ns, "app=sweep")).length).toBe(10);
      const refusals = (await events(ns, "sweep")).filter((e) => e.reason === "FailedCreate");
      expect(refusals.map((e) => e.message).join("\n")).toContain(`GPUBudget ${ns}/cap allows 10`);
    }, 90_000);
    // And it stays there: the Job controller's next retry is refused too.
    const refused = async () =>
      (await events(ns, "sweep"))
        .filter((e) => e.reason === "FailedCreate")
        .reduce((n, e) => n + (e.count ?? 1), 0);
    const before = await refused();
    await eventually(async () => expect(await refused()).toBeGreaterThan(before), 90_000, 1_000);
    expect((await pods(ns, "app=sweep")).length).toBe(10);
    await expectStatus(ns, "cap", { allocated: 10 });
  });

  it("a stopped node goes NotReady and its pods are evicted (left Terminating: no kubelet confirms)", async () => {
    const ns = await namespace("outage");
    await kubectl(["apply", "-f", "-"], budgetManifest(ns, "b", 32));
    const tolerations = ["unreachable", "not-ready"].map((t) => ({
      key: `node.kubernetes.io/${t}`,
      operator: "Exists",
      effect: "NoExecute",
      tolerationSeconds: 2,
    }));
    for (const [name, node] of [
      ["lost-a", "gpu-3"],
      ["lost-b", "gpu-3"],
      ["kept", "gpu-0"],
    ]) {
      await apply(
        // A grace long enough for the next test to watch the evicted pods still count within it.
        gpuPod(ns, name ?? "", 2, { nodeName: node, tolerations, terminationGracePeriodSeconds: 5 }),
      );
    }
    await eventually(async () =>
      expect((await pods(ns)).map((p) => p.status.phase)).toEqual(["Running", "Running", "Running"]),
    );
    await expectStatus(ns, "b", { allocated: 6, podCount: 3 });

    await cp.env.cluster?.stopNode("gpu-3");
    await eventually(async () => {
      const ready = await kubectl([
        "get",
        "node",
        "gpu-3",
        "-o",
        'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
      ]);
      expect(ready.stdout).toBe("Unknown");
    }, 60_000);
    await eventually(async () => {
      const lost = (await pods(ns)).filter((p) => p.metadata.name.startsWith("lost-"));
      expect(lost).toHaveLength(2);
      for (const p of lost) expect(p.metadata.deletionTimestamp).toBeDefined();
    }, 60_000);
    const kept = (await pods(ns)).find((p) => p.metadata.name === "kept");
    expect(kept?.metadata.deletionTimestamp).toBeUndefined();
  });

  // Ghost pods (issue 12): a pod stuck Terminating on a lost node stops counting once its deletion time
  // plus grace period has passed, as ResourceQuota does (not as soon as it is marked for deletion).
  it("the budget stops counting each evicted pod once its deletion time plus grace period has passed", async () => {
    try {
      const lost = (await pods("outage")).filter((p) => p.metadata.name.startsWith("lost-"));
      expect(lost).toHaveLength(2);
      const ends = lost.map(
        (p) =>
          Date.parse(p.metadata.deletionTimestamp ?? "") +
          (p.metadata.deletionGracePeriodSeconds ?? Number.NaN) * 1_000,
      );
      const [first, last] = [Math.min(...ends), Math.max(...ends)];
      expect(first).not.toBeNaN();
      // Each reading is timed when it returned, so a budget that dropped a pod at time t is read so at >= t.
      const readings: { at: number; allocated?: number }[] = [];
      await eventually(async () => {
        const now = await status("outage", "b");
        readings.push({ at: Date.now(), allocated: now.allocated });
        expect(now).toMatchObject({ allocated: 2, podCount: 1 });
      }, 30_000);
      // Read while both were still within their grace (deletionTimestamp is already set): still counted.
      const early = readings.filter((r) => r.at < first);
      expect(early.length, `first reading at ${readings[0]?.at}, grace ends ${first}`).toBeGreaterThan(0);
      expect(early.map((r) => r.allocated)).toEqual(early.map(() => 6));
      // Both stopped counting only after their deletion time plus grace, and within a reconcile of it.
      const freed = readings.find((r) => r.allocated === 2)?.at ?? Number.NaN;
      expect(freed).toBeGreaterThanOrEqual(last);
      expect(freed - last).toBeLessThan(5_000);
    } finally {
      await cp.env.cluster?.startNode("gpu-3");
    }
  });

  it("deleting the namespace that holds a budget completes, and the budget's metrics are gone", async () => {
    const ns = await namespace("doomed");
    await kubectl(["apply", "-f", "-"], budgetManifest(ns, "b", 8));
    await apply({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "d", namespace: ns },
      spec: { replicas: 2, selector: { matchLabels: { app: "d" } }, template: gpuTemplate("d", 1) },
    });
    await expectStatus(ns, "b", { allocated: 2 }, 60_000);
    await eventually(async () => {
      expect(metricValue(await op.metrics(), "gpubudget_allocated_gpus", { namespace: ns, name: "b" })).toBe(
        2,
      );
    });
    await kubectl(["delete", "namespace", ns, "--timeout=90s"]);
    expect((await kubectl(["get", "namespaces", "-o", "name"])).stdout).not.toContain(`namespace/${ns}`);
    await eventually(async () => {
      const text = await op.metrics();
      expect(metricValue(text, "gpubudget_allocated_gpus", { namespace: ns, name: "b" })).toBeUndefined();
      expect(metricValue(text, "gpubudget_max_gpus", { namespace: ns, name: "b" })).toBeUndefined();
    });
    expect(await status("deploy", "b")).toMatchObject({ allocated: 2 }); // others untouched
  });
});

// Issue 29 item 1: a Queue budget holds pods behind its scheduling gate and releases them in order; the
// Job controller's pods run and finish (kwok completes a Job's pods once Running).
describe("GPUBudget enforcement: Queue", () => {
  const gatedPods = async (ns: string, selector: string) =>
    (await pods(ns, selector)).filter((p) =>
      ((p.spec as { schedulingGates?: { name: string }[] }).schedulingGates ?? []).some(
        (g) => g.name === QUEUE_GATE,
      ),
    );

  it("holds a Job's 4 pods as one gang while 2 GPUs are free, releases all 4 when a pod ends, and they run", async () => {
    const ns = await namespace("queue");
    await apply(JSON.parse(budgetManifest(ns, "q", 4, { enforcement: "Queue" })));
    await expectEnforcing(kubectl, ns, "q");
    await apply(gpuPod(ns, "holder", 2));
    await eventually(
      async () => expect((await pods(ns, "app=holder"))[0]?.status.phase).toBe("Running"),
      60_000,
    );
    await apply({
      apiVersion: "batch/v1",
      kind: "Job",
      metadata: { name: "train", namespace: ns },
      spec: { parallelism: 4, completions: 4, template: gpuTemplate("train", 1, { restartPolicy: "Never" }) },
    });
    // All four wait, Pending behind the gate (the scheduler says SchedulingGated), and the budget says so.
    await eventually(async () => {
      expect((await gatedPods(ns, "app=train")).length).toBe(4);
      const table = await kubectl(["get", "gb", "q", "-n", ns]);
      expect(table.stdout).toMatch(/QUEUED[\s\S]*\bq\s+4\s+2\s+4\b/);
    }, 60_000);
    const waiting = (await pods(ns, "app=train")).map((p) => p.metadata.name);
    await eventually(async () => {
      const queued = (await events(ns, waiting[0] ?? "")).filter((e) => e.reason === "Queued");
      expect(queued.map((e) => e.message)).toContainEqual(
        expect.stringContaining("position 1 of 1 in line (q 2/4 in use)"),
      );
    });
    for (const p of await pods(ns, "app=train")) expect(p.spec.nodeName).toBeUndefined();

    // The gate is the operator's: a tenant who may update pods cannot remove it to jump the line.
    const guard = (await deployedObjects(kubectl, project)).filter(
      (d) => d.metadata?.name === "gpubudget-queue-gate-guard",
    );
    expect(guard).toHaveLength(2); // the policy and its binding
    await kubectl(["apply", "-f", "-"], guard.map((d) => JSON.stringify(d)).join("\n"));
    await kubectl(["create", "role", "pod-editor", "-n", ns, "--verb=get,patch,update", "--resource=pods"]);
    await kubectl([
      "create",
      "rolebinding",
      "tenant-pod-editor",
      "-n",
      ns,
      "--role=pod-editor",
      "--user=tenant",
    ]);
    const removeGate = (dryRun: boolean) =>
      cp.kubectl(
        [
          "--as=tenant",
          "patch",
          "pod",
          waiting[0] ?? "",
          "-n",
          ns,
          "--type=json",
          "-p",
          '[{"op":"remove","path":"/spec/schedulingGates/0"}]',
          ...(dryRun ? ["--dry-run=server"] : []),
        ],
        { reject: false },
      );
    const refusal = `the scheduling gate ${QUEUE_GATE} is removed by the GPUBudget operator`;
    try {
      // A new policy takes a moment to be enforced: wait with a dry run (admission, nothing persisted),
      // so the tenant's real attempt cannot succeed before it is.
      await eventually(async () => expect((await removeGate(true)).all).toContain(refusal));
      const removed = await removeGate(false);
      expect(removed.exitCode).not.toBe(0);
      expect(removed.all).toContain(refusal);
    } finally {
      await kubectl(["delete", "-f", "-"], guard.map((d) => JSON.stringify(d)).join("\n"));
    }
    expect((await gatedPods(ns, "app=train")).length).toBe(4);

    // The holder ends: the gang is released whole, scheduled, run and completed by the Job.
    await kubectl(["delete", "pod", "holder", "-n", ns, "--wait=false"]);
    await eventually(async () => {
      const job = JSON.parse((await kubectl(["get", "job", "train", "-n", ns, "-o", "json"])).stdout) as {
        status?: { succeeded?: number };
      };
      expect(job.status?.succeeded).toBe(4);
    }, 90_000);
    for (const name of waiting) {
      const released = (await events(ns, name)).find((e) => e.reason === "Released");
      expect(released?.message).toMatch(/released after [0-9.]+s in line/);
    }
    await expectStatus(ns, "q", { allocated: 0 });
    const metrics = await op.metrics();
    expect(metricValue(metrics, "gpubudget_queued_pods", { namespace: ns, name: "q" })).toBe(0);
    // The holder waited in line too (every pod the budget counts does), for no time.
    expect(metricValue(metrics, "gpubudget_queue_wait_seconds_count", { namespace: ns, name: "q" })).toBe(5);
  });
});

// Issue 29 item 3: GPU-hour budgets. Pods really run (kwok sets startTime and deletes them), so the
// ledger is checked against each pod's own timestamps.
describe("GPUBudget GPU-hours", () => {
  interface MeteredPod {
    metadata: { name: string; uid: string; finalizers?: string[]; deletionTimestamp?: string };
    status: { phase?: string; startTime?: string };
  }
  const FINALIZER = "capacity.lab.example.com/gpu-hours";
  const metered = async (ns: string) =>
    (JSON.parse((await kubectl(["get", "pods", "-n", ns, "-o", "json"])).stdout) as { items: MeteredPod[] })
      .items;
  const seconds = (from?: string, to?: string) => (Date.parse(to ?? "") - Date.parse(from ?? "")) / 1000;

  it("charges each pod once across a leader SIGKILL, pods deleted while it is down included, and refuses pods once spent", async () => {
    const ns = await namespace("hours");
    // 0.002 GPU-hours (7.2 GPU-seconds): three running GPUs spend it in a few seconds.
    await apply(
      JSON.parse(
        budgetManifest(ns, "h", 16, { enforcement: "Deny", gpuHours: { limit: "0.002", window: "daily" } }),
      ),
    );
    await expectEnforcing(kubectl, ns, "h");
    await apply({ apiVersion: "v1", kind: "List", items: ["done", "a", "b"].map((n) => gpuPod(ns, n, 1)) });
    const running = await eventually(async () => {
      const all = await metered(ns);
      expect(
        all.map((p) => [p.metadata.name, p.status.phase, p.metadata.finalizers?.includes(FINALIZER)]),
      ).toEqual([
        ["a", "Running", true],
        ["b", "Running", true],
        ["done", "Running", true],
      ]);
      return all;
    }, 60_000);
    // "done" finishes (as a kubelet would say) and stays: the leader charges it and lets its finalizer go.
    const done = running.find((p) => p.metadata.name === "done");
    const finishedAt = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace(".000Z", "Z");
    await kubectl([
      "patch",
      "pod",
      "done",
      "-n",
      ns,
      "--subresource=status",
      "--type=merge",
      "-p",
      JSON.stringify({
        status: {
          phase: "Succeeded",
          containerStatuses: [
            {
              name: "main",
              image: "registry.k8s.io/pause:3.10",
              imageID: "",
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 0, startedAt: done?.status.startTime, finishedAt } },
            },
          ],
        },
      }),
    ]);
    await eventually(async () => {
      const b = JSON.parse((await kubectl(["get", "gb", "h", "-n", ns, "-o", "json"])).stdout);
      expect(b.status?.gpuHours?.recordedPods).toEqual([done?.metadata.uid]);
      const d = (await metered(ns)).find((p) => p.metadata.name === "done");
      expect(d?.metadata.finalizers ?? []).not.toContain(FINALIZER);
    }, 30_000);

    // a and b run 4 s at least, so together they spend the 7.2 GPU-seconds whatever the machine's pace.
    const started = Math.max(...running.map((p) => Date.parse(p.status.startTime ?? "")));
    await eventually(async () => expect(Date.now() - started).toBeGreaterThan(4_000), 10_000);
    // The leader dies; a and b are deleted while no operator runs. Their finalizer keeps them.
    await op.kill();
    await kubectl(["delete", "pod", "a", "b", "-n", ns, "--wait=false"]);
    const deleted = await eventually(async () => {
      const gone = (await metered(ns)).filter((p) => p.metadata.name !== "done");
      expect(gone.map((p) => p.metadata.name)).toEqual(["a", "b"]);
      // Read once the deletion time has passed: kwok may shorten it, never after.
      for (const p of gone)
        expect(Date.parse(p.metadata.deletionTimestamp ?? "") + 1_000).toBeLessThan(Date.now());
      return gone;
    }, 30_000);
    op = await startOperator(project, cp, { name: "cluster-after-kill", logDir: join(work, "logs") });

    const expected =
      1000 * seconds(done?.status.startTime, finishedAt) +
      deleted.reduce((sum, p) => sum + 1000 * seconds(p.status.startTime, p.metadata.deletionTimestamp), 0);
    expect(expected).toBeGreaterThan(0);
    const ledger = await eventually(async () => {
      expect((await metered(ns)).map((p) => p.metadata.name)).toEqual(["done"]);
      const b = JSON.parse((await kubectl(["get", "gb", "h", "-n", ns, "-o", "json"])).stdout);
      expect(b.status?.gpuHours?.recordedPods).toEqual([done?.metadata.uid]);
      return b.status?.gpuHours as { periods?: { milliGPUSeconds: number }[] };
    }, 60_000);
    // Nothing lost (a and b were deleted with no leader) and nothing twice ("done" was seen by both).
    expect((ledger.periods ?? []).reduce((sum, p) => sum + p.milliGPUSeconds, 0)).toBe(expected);

    await eventually(async () => {
      const b = JSON.parse((await kubectl(["get", "gb", "h", "-n", ns, "-o", "json"])).stdout);
      expect(
        b.status?.conditions?.find((c: { type: string }) => c.type === "GPUHoursAvailable"),
      ).toMatchObject({
        status: "False",
        reason: "Spent",
      });
    });
    const refused = await cp.kubectl(["apply", "-f", "-"], {
      input: JSON.stringify(gpuPod(ns, "next", 1)),
      reject: false,
    });
    expect(refused.exitCode).not.toBe(0);
    expect(refused.all).toMatch(/GPUBudget hours\/h has used [0-9.]+\/0.002 GPU-hours in its window \(daily/);
  });
});

// Issue 29 item 2: budgets of one cohort lend each other unused GPUs, and a lender gets them back.
describe("GPUBudget cohorts", () => {
  interface CohortPod extends PodView {
    metadata: PodView["metadata"] & { creationTimestamp: string };
    spec: PodView["spec"] & { schedulingGates?: { name: string }[] };
    status: PodView["status"] & { startTime?: string };
  }
  const budget = async (ns: string, name: string) =>
    JSON.parse((await kubectl(["get", "gb", name, "-n", ns, "-o", "json"])).stdout) as {
      status?: { allocatedGPUs?: number; borrowedGPUs?: number; lentGPUs?: number; queuedPods?: number };
    };

  it("borrows a peer's idle GPUs, then gives them back by evicting the newest pods once they ran minRuntime", async () => {
    const [a, b] = [await namespace("cohort-a"), await namespace("cohort-b")];
    const minRuntimeMs = 30_000;
    await apply(
      JSON.parse(
        budgetManifest(a, "a", 2, { enforcement: "Queue", cohort: "lab", reclaim: { minRuntime: "30s" } }),
      ),
    );
    await apply(JSON.parse(budgetManifest(b, "b", 2, { enforcement: "Queue", cohort: "lab" })));
    await expectEnforcing(kubectl, a, "a");
    await expectEnforcing(kubectl, b, "b");
    // Four 1-GPU pods against a budget of 2: two run on a's GPUs, two on b's, which b does not use.
    await apply({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "borrow", namespace: a },
      spec: {
        replicas: 4,
        selector: { matchLabels: { app: "borrow" } },
        template: gpuTemplate("borrow", 1),
      },
    });
    await eventually(async () => {
      const running = (await pods(a, "app=borrow")).filter((p) => p.status.phase === "Running");
      expect(running).toHaveLength(4);
      expect((await budget(a, "a")).status).toMatchObject({ allocatedGPUs: 4, borrowedGPUs: 2 });
      expect((await budget(b, "b")).status).toMatchObject({ allocatedGPUs: 0, lentGPUs: 2 });
      const table = await kubectl(["get", "gb", "a", "-n", a, "-o", "wide"]);
      expect(table.stdout).toMatch(/COHORT\s+BORROWED[\s\S]*\ba\s+2\s+4\s.*\blab\s+2\b/);
    }, 60_000);
    const before = (await pods(a, "app=borrow")) as CohortPod[];
    const newest = Math.max(...before.map((p) => Date.parse(p.status.startTime ?? "")));

    // b wants its 2 GPUs: its pod waits, and nothing is evicted before a's pods have run 30s.
    await apply(gpuPod(b, "mine", 2));
    await eventually(async () => expect((await budget(b, "b")).status?.queuedPods).toBe(1), 30_000);
    expect(Date.now()).toBeLessThan(newest + minRuntimeMs - 2_000);
    expect((await pods(a, "app=borrow")).filter((p) => p.metadata.deletionTimestamp)).toEqual([]);
    let kept = new Set<string>();
    const evictedAt = await eventually(async () => {
      const names = new Set(
        (await pods(a, "app=borrow"))
          .filter((p) => !p.metadata.deletionTimestamp)
          .map((p) => p.metadata.name),
      );
      expect(before.filter((p) => !names.has(p.metadata.name))).toHaveLength(2);
      kept = names;
      return Date.now();
    }, 90_000);
    expect(evictedAt).toBeGreaterThanOrEqual(newest + minRuntimeMs - 1_000); // startTime has second precision
    // The two newest went; the two oldest stay.
    const startOf = (p: CohortPod) => Date.parse(p.status.startTime ?? "");
    const evicted = before.filter((p) => !kept.has(p.metadata.name));
    const stayed = before.filter((p) => kept.has(p.metadata.name));
    expect(Math.min(...evicted.map(startOf))).toBeGreaterThanOrEqual(Math.max(...stayed.map(startOf)));

    // b's pod runs; a's Deployment made two new pods, which wait: the cohort is full, nothing to borrow.
    await eventually(async () => {
      expect((await pods(b, "app=mine"))[0]?.status.phase).toBe("Running");
      expect((await budget(a, "a")).status).toMatchObject({
        allocatedGPUs: 2,
        borrowedGPUs: 0,
        queuedPods: 2,
      });
      expect((await budget(b, "b")).status).toMatchObject({ allocatedGPUs: 2, lentGPUs: 0 });
    }, 60_000);
    for (const p of evicted)
      expect((await events(a, p.metadata.name)).map((e) => e.reason)).toContain("Reclaimed");
    expect((await events(a, "a")).map((e) => e.reason)).toContain("Reclaimed");
    expect((await events(b, "b")).map((e) => e.reason)).toContain("Reclaimed");
    const metrics = await op.metrics();
    expect(metricValue(metrics, "gpubudget_reclaimed_pods_total", { namespace: a, name: "a" })).toBe(2);
    expect(metricValue(metrics, "gpubudget_borrowed_gpus", { namespace: a, name: "a" })).toBe(0);
  });
});

// Issue 28 item 3: GPUs asked for through Dynamic Resource Allocation are counted and enforced. The nodes'
// GPUs are published as ResourceSlices of a simulated driver; the scheduler allocates claims from them.
describe("GPUBudget with Dynamic Resource Allocation", () => {
  const DRIVER = "gpu.example.com";
  const CLASS = "gpu.example.com";

  const claimSpec = (count: number) => ({
    devices: { requests: [{ name: "gpu", exactly: { deviceClassName: CLASS, count } }] },
  });
  /** A pod whose container uses the claim `claim` (a template's, or an existing claim's). */
  const claimPod = (ns: string, name: string, source: Record<string, string>) => ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: ns },
    spec: {
      terminationGracePeriodSeconds: 5,
      resourceClaims: [{ name: "gpu", ...source }],
      containers: [
        { name: "main", image: "registry.k8s.io/pause:3.10", resources: { claims: [{ name: "gpu" }] } },
      ],
    },
  });

  beforeAll(async () => {
    await apply({
      apiVersion: "resource.k8s.io/v1",
      kind: "DeviceClass",
      metadata: { name: CLASS },
      spec: { selectors: [{ cel: { expression: `device.driver == "${DRIVER}"` } }] },
    });
    for (const node of NODES) {
      await apply({
        apiVersion: "resource.k8s.io/v1",
        kind: "ResourceSlice",
        metadata: { name: `${node}-gpus` },
        spec: {
          driver: DRIVER,
          nodeName: node,
          pool: { name: node, generation: 1, resourceSliceCount: 1 },
          devices: Array.from({ length: 8 }, (_, i) => ({ name: `gpu-${i}` })),
        },
      });
    }
  });

  it("counts a template's claim once allocated, refuses claims over a Deny budget, and a template pod stays Pending", async () => {
    const ns = await namespace("dra");
    await kubectl(
      ["apply", "-f", "-"],
      budgetManifest(ns, "cap", 4, { enforcement: "Deny", deviceClasses: [{ name: CLASS }] }),
    );
    await expectEnforcing(kubectl, ns, "cap");
    await apply({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaimTemplate",
      metadata: { name: "two-gpus", namespace: ns },
      spec: { spec: claimSpec(2) },
    });

    // A pod asking through a template: the resourceclaim controller creates its claim (admitted: 2/4),
    // the scheduler allocates two of the node's devices, and the budget counts the claim.
    await apply(claimPod(ns, "trainer", { resourceClaimTemplateName: "two-gpus" }));
    await eventually(async () => {
      expect((await pods(ns)).find((p) => p.metadata.name === "trainer")?.status.phase).toBe("Running");
    }, 30_000);
    const claims = JSON.parse((await kubectl(["get", "resourceclaims", "-n", ns, "-o", "json"])).stdout) as {
      items: { status?: { allocation?: { devices?: { results?: { driver: string }[] } } } }[];
    };
    expect(claims.items).toHaveLength(1);
    expect(claims.items[0]?.status?.allocation?.devices?.results?.map((r) => r.driver)).toEqual([
      DRIVER,
      DRIVER,
    ]);
    await expectStatus(ns, "cap", { allocated: 2, podCount: 0, claimCount: 1, ready: "True" });

    // A claim created directly that would take the budget to 5/4 is refused by the webhook.
    const refused = await cp.kubectl(["apply", "-f", "-"], {
      input: JSON.stringify({
        apiVersion: "resource.k8s.io/v1",
        kind: "ResourceClaim",
        metadata: { name: "three", namespace: ns },
        spec: claimSpec(3),
      }),
      reject: false,
    });
    expect(refused.exitCode).not.toBe(0);
    expect(refused.all).toContain(
      `resourceclaim denied: GPUBudget ${ns}/cap allows 4 GPUs (nvidia.com/gpu, DeviceClass ${CLASS}); 2 in use`,
    );
    expect(refused.all).toContain("this claim asks for 3 (5/4)");

    // One that fits is admitted and counted at once, allocated or not (as ResourceQuota charges it),
    // and a pod that uses it adds nothing more.
    await apply({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaim",
      metadata: { name: "spare", namespace: ns },
      spec: claimSpec(2),
    });
    await expectStatus(ns, "cap", { allocated: 4, claimCount: 2 });
    // Its reservation leaves the budget's status once the operator's cache has seen the claim, long
    // before the reservation's 30 s expiry: the list holds only claims in flight.
    await eventually(async () => {
      const b = JSON.parse((await kubectl(["get", "gb", "cap", "-n", ns, "-o", "json"])).stdout) as {
        status?: { reservations?: { pod: string }[]; settledClaimResourceVersion?: string };
      };
      expect(b.status?.reservations ?? []).toEqual([]);
      expect(b.status?.settledClaimResourceVersion).toMatch(/^\d+$/);
    }, 10_000);
    await apply(claimPod(ns, "user", { resourceClaimName: "spare" }));

    // The budget is full: a second template pod is created (it asks for no GPU itself), but its claim is
    // refused, so it stays Pending, and its events say why.
    await apply(claimPod(ns, "second", { resourceClaimTemplateName: "two-gpus" }));
    await eventually(async () => {
      const said = (await events(ns, "second")).map((e) => `${e.reason}: ${e.message}`).join("\n");
      expect(said).toMatch(
        /FailedResourceClaimCreation: PodResourceClaim gpu: .*admission webhook "vresourceclaim-v1\.kb\.io" denied the request: resourceclaim denied: GPUBudget dra\/cap allows 4 .*this claim asks for 2 \(6\/4\)/,
      );
    }, 30_000);
    const second = (await pods(ns)).find((p) => p.metadata.name === "second");
    expect(second?.status.phase).toBe("Pending");
    expect(second?.spec.nodeName).toBeUndefined();
    await expectStatus(ns, "cap", { allocated: 4, claimCount: 2, ready: "True" });
  });

  // KEP-5004 (DRAExtendedResource, on by default since 1.36): no node advertises example.com/gpu, a
  // DeviceClass maps it to the simulated driver's devices, so the scheduler makes the pod a claim.
  it("counts a pod's DRA-backed extended resource once, and a claim forged as the pod's in full", async () => {
    const ns = await namespace("dra-extended");
    const extendedClass = "extended.gpu.example.com";
    await apply({
      apiVersion: "resource.k8s.io/v1",
      kind: "DeviceClass",
      metadata: { name: extendedClass },
      spec: {
        selectors: [{ cel: { expression: `device.driver == "${DRIVER}"` } }],
        extendedResourceName: "example.com/gpu",
      },
    });
    await kubectl(
      ["apply", "-f", "-"],
      budgetManifest(ns, "cap", 4, {
        enforcement: "Deny",
        resources: [{ name: "example.com/gpu" }],
        deviceClasses: [{ name: extendedClass }],
      }),
    );
    await expectEnforcing(kubectl, ns, "cap");
    await apply(gpuPod(ns, "extended", 2, {}, "example.com/gpu"));
    type ClaimView = {
      metadata: { name: string; annotations?: Record<string, string> };
      status?: { allocation?: unknown };
    };
    let generated = "";
    let podUID = "";
    await eventually(async () => {
      const pod = JSON.parse((await kubectl(["get", "pod", "extended", "-n", ns, "-o", "json"])).stdout) as {
        metadata: { uid: string };
        status: { phase?: string; extendedResourceClaimStatus?: { resourceClaimName: string } };
      };
      expect(pod.status.phase).toBe("Running");
      generated = pod.status.extendedResourceClaimStatus?.resourceClaimName ?? "";
      expect(generated).not.toBe("");
      podUID = pod.metadata.uid;
    }, 30_000);
    const claims = JSON.parse((await kubectl(["get", "resourceclaims", "-n", ns, "-o", "json"])).stdout) as {
      items: ClaimView[];
    };
    const made = claims.items.find((c) => c.metadata.name === generated);
    expect(made?.metadata.annotations?.["resource.kubernetes.io/extended-resource-claim"]).toBe("true");
    expect(made?.status?.allocation).toBeDefined();
    // The pod's 2 example.com/gpu and its claim's 2 devices are the same GPUs: 2 in use, not 4.
    await expectStatus(ns, "cap", { allocated: 2, podCount: 1, claimCount: undefined, ready: "True" });

    // A claim that says it was made for the same pod, but that the pod does not name, counts in full:
    // asking for 3 more would make 5/4, and is refused; 2 more fit, and are counted.
    const forged = (name: string, count: number) => ({
      apiVersion: "resource.k8s.io/v1",
      kind: "ResourceClaim",
      metadata: {
        name,
        namespace: ns,
        annotations: { "resource.kubernetes.io/extended-resource-claim": "true" },
        ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "extended", uid: podUID, controller: true }],
      },
      spec: { devices: { requests: [{ name: "gpu", exactly: { deviceClassName: extendedClass, count } }] } },
    });
    const refused = await cp.kubectl(["apply", "-f", "-"], {
      input: JSON.stringify(forged("forged-three", 3)),
      reject: false,
    });
    expect(refused.exitCode).not.toBe(0);
    expect(refused.all).toContain(`resourceclaim denied: GPUBudget ${ns}/cap allows 4 GPUs`);
    expect(refused.all).toContain("this claim asks for 3 (5/4)");
    await apply(forged("forged-two", 2));
    await expectStatus(ns, "cap", { allocated: 4, podCount: 1, claimCount: 1, ready: "True" });
  });
});
