/**
 * bench/gpubudget: the scaffolded GPUBudget operator (a real process, as deployed) on a local control
 * plane with 10,000 pods over 100 namespaces, one budget each. Prints:
 *   - admission under a burst: 200 concurrent 1-GPU pod creates against a Deny budget of 10, the count
 *     admitted and the create latency p50/p99 (the webhook's reservation write included),
 *   - the 10,000-pod create rate with the Pod webhook off (its configuration removed) and on, in one run,
 *     the webhook calls kube-apiserver made meanwhile, and the CPU each process (operator,
 *     kube-apiserver, etcd, this client) spent in each phase. The 10,000 pods' budgets are Deny with
 *     room for every pod (the default), so each "on" pod is admitted through the webhook; the goal
 *     (on >= 0.9x off) is printed only when the webhook calls cover the pods (rate.ts),
 *   - time from the last pod create until every budget's status is correct,
 *   - the operator's idle RSS and start-to-idle CPU (footprint.ts), and its peak RSS (VmHWM),
 *   - p50/p99 latency from a pod change (status phase -> Succeeded) to its budget's status update,
 *     as seen by a watch.
 *
 *   npx tsx bench/gpubudget/main.ts [--pods 10000] [--namespaces 100] [--samples 200] [--project DIR]
 *     [--enable-http2]   the operator offers HTTP/2, which the API server's webhook client then uses
 *     [--enforcement Report]   the 10,000 pods' budgets are Report: the scaffold's namespaceSelector
 *       sends none of them to the webhook (only namespaces of Deny budgets), so the goal is not measured
 *     [--cluster [--nodes 20]]   the same pods through Deployments on simulated nodes (cluster.ts)
 *     [--max-concurrent-reconciles 4]
 *     [--compare-go [--rounds 2]]   the TS operator beside its Go port, interleaved (compare-go.ts)
 *     [--vs-quota]   a Deny GPUBudget against a ResourceQuota on requests.nvidia.com/gpu and against
 *       nothing, on one control plane and operator, in interleaved rounds (vs-quota.ts):
 *       [--namespaces 30] fresh namespaces per set and round, [--cap 50] one-GPU pods each,
 *       [--creates 3000] creates per set and round (more than cap per namespace), [--concurrency 32],
 *       [--rounds 2], [--cluster] (quota status kept by kube-controller-manager, not written once), [--enable-http2],
 *       then the steady phase: [--steady-pods 3000] in one namespace per capped set, [--steady-rate 20]
 *       refused creates/s and create+delete pairs/s (0: no steady phase) for [--steady-seconds 30]
 *
 * --project reuses an already scaffolded and built project (e.g. from `make demo DEMO_ARGS=--keep`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "../../e2e/support/eventually.js";
import {
  buildProject,
  type ControlPlane,
  type Operator,
  scaffoldProject,
  startControlPlane,
  startOperator,
} from "../../e2e/support/operator.js";
import { loadAverage, percentile } from "../../e2e/support/stats.js";
import type { Pod as PodObject } from "../../runtime/src/api/core.js";
import { Namespace, Pod } from "../../runtime/src/api/kinds.js";
import { createClient } from "../../runtime/src/client/index.js";
import { benchArgs } from "../args.js";
import {
  type Budget,
  CPU_PROCESSES,
  type CPUSeconds,
  cpuBetween,
  cpuByProcess,
  GPUBudget,
  peakRSSMiB,
  pool,
  refusesDryRun,
  startupReconciled,
  statusLatencies,
  webhookCalls,
} from "./common.js";
import { waitForIdle } from "./footprint.js";
import { createRateLines } from "./rate.js";

const { values } = benchArgs("bench/gpubudget", {
  pods: { type: "string", default: "10000" },
  // No default here: --vs-quota's is 30, the other figures' 100.
  namespaces: { type: "string" },
  samples: { type: "string", default: "200" },
  concurrency: { type: "string", default: "32" },
  burst: { type: "string", default: "200" },
  project: { type: "string" },
  // The operator's webhook and metrics servers offer HTTP/2 (the scaffold's --enable-http2).
  "enable-http2": { type: "boolean", default: false },
  // Deny (with room for every pod) sends each pod to the webhook; Report sends none (rate.ts).
  enforcement: { type: "string", default: "Deny" },
  // --cluster: the same pods made by Deployments on envtest's cluster mode (see cluster.ts).
  cluster: { type: "boolean", default: false },
  nodes: { type: "string", default: "20" },
  // --compare-go: the TS operator against its Kubebuilder (Go) port, TS, Go, TS, Go (compare-go.ts).
  "compare-go": { type: "boolean", default: false },
  rounds: { type: "string", default: "2" },
  "max-concurrent-reconciles": { type: "string", default: "4" },
  // --vs-quota: Deny GPUBudget against ResourceQuota and against nothing, interleaved (vs-quota.ts).
  "vs-quota": { type: "boolean", default: false },
  creates: { type: "string" },
  cap: { type: "string" },
  "steady-rate": { type: "string" },
  "steady-seconds": { type: "string" },
  "steady-pods": { type: "string" },
});
if (values["vs-quota"]) {
  const { vsQuotaMain } = await import("./vs-quota.js");
  process.exit(await vsQuotaMain(values));
}
if (values["compare-go"]) {
  const { compareGoMain } = await import("./compare-go.js");
  process.exit(await compareGoMain(values));
}
if (values.cluster) {
  const { runClusterBench } = await import("./cluster.js");
  await runClusterBench({
    pods: Number(values.pods),
    namespaces: Number(values.namespaces ?? "100"),
    samples: Number(values.samples),
    nodes: Number(values.nodes),
    ...(values.project ? { project: values.project } : {}),
  });
  process.exit(0);
}
const PODS = Number(values.pods);
const NAMESPACES = Number(values.namespaces ?? "100");
const SAMPLES = Number(values.samples);
const CONCURRENCY = Number(values.concurrency);
const PER_NS = Math.ceil(PODS / NAMESPACES);
const BURST = Number(values.burst);
const BURST_CAP = 10;
const ENFORCEMENT = values.enforcement;
if (ENFORCEMENT !== "Report" && ENFORCEMENT !== "Deny") {
  throw new Error(`--enforcement ${ENFORCEMENT}: give Deny (the default) or Report`);
}

const ns = (i: number, set = "on") => `bench-${set}-${String(i).padStart(3, "0")}`;

const work = mkdtempSync(join(tmpdir(), "kbts-bench-gpubudget-"));
const project = values.project ?? join(work, "gpubudget");
let cp: ControlPlane | undefined;
let operator: Operator | undefined;

// The figures depend on what else runs: a create rate is CPU-bound on a small machine.
const loadAtStart = loadAverage();
try {
  if (!values.project) {
    console.log("scaffolding and building the GPUBudget project...");
    await scaffoldProject(project);
    await buildProject(project);
  }
  cp = await startControlPlane(project);
  const client = createClient(cp.env.kubeConfig);

  const createBudgets = async (set: string) => {
    for (let i = 0; i < NAMESPACES; i++) {
      await client.create(Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: ns(i, set) } });
      await client.create(GPUBudget, {
        apiVersion: "capacity.lab.example.com/v1alpha1",
        kind: "GPUBudget",
        metadata: { name: "budget", namespace: ns(i, set) },
        spec: { maxGPUs: PER_NS, enforcement: ENFORCEMENT } as Budget["spec"],
      });
    }
  };
  const podsOf = (set: string): PodObject[] =>
    Array.from({ length: PODS }, (_, i) => ({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: `p-${i}`, namespace: ns(i % NAMESPACES, set) },
      spec: {
        containers: [{ name: "c", image: "busybox", resources: { limits: { "nvidia.com/gpu": "1" } } }],
      },
    }));
  await createBudgets("off");
  await createBudgets("on");
  operator = await startOperator(project, cp, {
    name: "bench",
    logDir: join(work, "logs"),
    extraArgs: [
      `--max-concurrent-reconciles=${values["max-concurrent-reconciles"]}`,
      "--zap-log-level=error",
      `--enable-http2=${values["enable-http2"]}`,
    ],
  });
  const idle = await waitForIdle(operator.process.pid ?? 0, () => startupReconciled(client));
  const c = cp;

  // Admission under a burst: BURST concurrent creates against a Deny budget of BURST_CAP.
  await client.create(Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: "burst" } });
  await client.create(GPUBudget, {
    apiVersion: "capacity.lab.example.com/v1alpha1",
    kind: "GPUBudget",
    metadata: { name: "cap", namespace: "burst" },
    spec: { maxGPUs: BURST_CAP, enforcement: "Deny" } as Budget["spec"],
  });
  // Only namespaces holding a Deny budget are sent to the webhook: wait until the operator has labelled
  // "burst" (the budget's Enforcing condition), then until the webhook refuses a dry-run pod past it.
  await c.kubectl(["wait", "gb", "cap", "-n", "burst", "--for=condition=Enforcing", "--timeout=120s"]);
  await refusesDryRun(client, "burst", 11);
  const burstClients = Array.from({ length: 4 }, () => createClient(c.env.kubeConfig));
  const burstLatencies: number[] = [];
  const burstResults = await Promise.allSettled(
    Array.from({ length: BURST }, async (_, i) => {
      const t0 = performance.now();
      try {
        await (burstClients[i % burstClients.length] as typeof client).create(Pod, {
          apiVersion: "v1",
          kind: "Pod",
          metadata: { name: `b-${i}`, namespace: "burst" },
          spec: {
            containers: [{ name: "c", image: "busybox", resources: { limits: { "nvidia.com/gpu": "1" } } }],
          },
        });
      } finally {
        burstLatencies.push(performance.now() - t0);
      }
    }),
  );
  burstLatencies.sort((x, y) => x - y);
  const burstAdmitted = burstResults.filter((r) => r.status === "fulfilled").length;

  // The create rate with the webhook off (its configuration removed), then on, in this one run.
  const hooks = await c.kubectl(["get", "validatingwebhookconfigurations", "-o", "json"]);
  await c.kubectl(["delete", "validatingwebhookconfigurations", "--all"]);
  const rate = async (set: string) => {
    const t0 = Date.now();
    await pool(podsOf(set), CONCURRENCY, async (p) => {
      await client.create(Pod, p);
    });
    return PODS / ((Date.now() - t0) / 1000);
  };
  console.log(
    `creating ${PODS} pods with the webhook off, then ${PODS} with it on (${CONCURRENCY} at a time)`,
  );
  // Where the CPU goes, per process, in each phase: the webhook's cost is the difference.
  const operatorPid = operator.process.pid;
  const cpu = () => cpuByProcess(operatorPid);
  const since = (before: CPUSeconds) => cpuBetween(before, cpu());
  const cpu0 = cpu();
  const rateOff = await rate("off");
  const cpuOff = since(cpu0);
  const restored = JSON.parse(hooks.stdout) as {
    items: Record<string, { resourceVersion?: string; uid?: string }>[];
  };
  for (const item of restored.items) {
    delete item.metadata?.resourceVersion;
    delete item.metadata?.uid;
  }
  await c.kubectl(["apply", "-f", "-"], {
    input: JSON.stringify({ apiVersion: "v1", kind: "List", items: restored.items }),
  });
  // The budget is full from the burst: a refusal says the webhook is called again.
  await refusesDryRun(client, "burst", 1);
  if (ENFORCEMENT === "Deny") {
    // Every namespace labelled, so each of the pods below is sent to the webhook.
    await c.kubectl(["wait", "gb", "--all", "-A", "--for=condition=Enforcing", "--timeout=300s"]);
  }
  const cpu1 = cpu();
  const calls1 = await webhookCalls(c);
  const rateOn = await rate("on");
  const cpuOn = since(cpu1);
  const callsOn = (await webhookCalls(c)) - calls1;
  const pods = podsOf("on");
  const lastCreate = Date.now();
  const expected = new Map<string, number>();
  for (const p of pods)
    expected.set(p.metadata?.namespace ?? "", (expected.get(p.metadata?.namespace ?? "") ?? 0) + 1);
  for (const p of podsOf("off"))
    expected.set(p.metadata?.namespace ?? "", (expected.get(p.metadata?.namespace ?? "") ?? 0) + 1);
  await eventually(
    async () => {
      const budgets = (await client.list(GPUBudget, {})).filter((b) => b.metadata?.namespace !== "burst");
      const wrong = budgets.filter(
        (b) => b.status?.allocatedGPUs !== expected.get(b.metadata?.namespace ?? ""),
      );
      if (wrong.length > 0) throw new Error(`${wrong.length} budgets not yet correct`);
    },
    600_000,
    100,
  );
  const converged = Date.now();

  // Latency: a watch (informer) on budgets timestamps each status update after a pod change.
  const latencies = await statusLatencies(cp.env.kubeConfig, client, pods, expected, SAMPLES);

  const rss = peakRSSMiB(operator.process.pid ?? 0);
  console.log(`pods: ${PODS} in ${NAMESPACES} namespaces (one GPUBudget each)`);
  console.log(
    `admission burst: ${BURST} concurrent 1-GPU creates against a Deny budget of ${BURST_CAP}: ${burstAdmitted} admitted; create latency p50 ${percentile(burstLatencies, 50).toFixed(0)} ms, p99 ${percentile(burstLatencies, 99).toFixed(0)} ms`,
  );
  for (const line of createRateLines({ pods: PODS, rateOff, rateOn, callsOn })) console.log(line);
  console.log(
    `CPU while creating (s, webhook off -> on; difference per pod): ${CPU_PROCESSES.map((k) => {
      const off = cpuOff[k];
      const on = cpuOn[k];
      return `${k} ${off.toFixed(1)} -> ${on.toFixed(1)} (${(((on - off) / PODS) * 1000).toFixed(2)} ms)`;
    }).join(", ")}`,
  );
  console.log(
    `load average (1/5/15 min): ${loadAtStart} at the start, ${loadAverage()} at the end, on ${availableParallelism()} CPUs`,
  );
  console.log(
    `all budgets correct: ${((converged - lastCreate) / 1000).toFixed(2)} s after the last pod create`,
  );
  console.log(
    `operator idle after cache sync: RSS ${idle.rssMiB.toFixed(0)} MiB, CPU start to idle ${idle.cpuSeconds.toFixed(2)} s (footprint.ts)`,
  );
  console.log(`operator peak RSS: ${rss.toFixed(0)} MiB`);
  console.log(
    `pod change -> budget status update (${SAMPLES} samples): p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  );
} finally {
  await operator?.stop().catch(() => undefined);
  await cp?.stop().catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
}
