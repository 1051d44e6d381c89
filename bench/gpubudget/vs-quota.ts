/**
 * bench/gpubudget --vs-quota: a team that puts GPU quota on every tenant namespace compares a Deny
 * GPUBudget with a ResourceQuota on `requests.nvidia.com/gpu` (kbts issue 28). One control plane, one
 * scaffolded operator process as its image runs it (the production build; its Pod webhook on), three
 * sets of namespaces measured in interleaved
 * rounds (none, quota, budget, none, quota, budget, ...):
 *   - none: no quota, no budget (the webhook's namespaceSelector sends these namespaces nowhere),
 *   - quota: a ResourceQuota `hard: {requests.nvidia.com/gpu: cap}` per namespace, its status kept by
 *     kube-controller-manager's resourcequota controller with --cluster, else written once by the bench
 *     (status.hard, used 0) as that controller's first sync would,
 *   - budget: a Deny GPUBudget of maxGPUs = cap per namespace.
 * Each round sends more one-GPU creates to every namespace than its cap, so each ends full and refuses
 * the rest; "exact" says every capped namespace holds exactly cap pods. The steady phase then holds one
 * namespace per capped set at `--steady-pods` pods and sends a steady rate of creates that must be refused
 * and of create+delete pairs below the cap, comparing the create latency of budget and quota.
 * Each set also reads the CPU kube-apiserver, etcd, the operator and the bench spent while it was
 * created: where a set's time goes on a machine whose cores the creates saturate.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { histogramQuantile } from "../../e2e/support/apiserver-metrics.js";
import { eventually } from "../../e2e/support/eventually.js";
import { nodeLtsBin } from "../../e2e/support/node-lts.js";
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
import { Namespace, Pod, ResourceQuota } from "../../runtime/src/api/kinds.js";
import { type APIClient, createClient, ForbiddenError } from "../../runtime/src/client/index.js";
import { simulatedNodes } from "../../runtime/src/envtest/index.js";
import {
  type Budget,
  budgetChecks,
  CPU_PROCESSES,
  type CPUSeconds,
  cpuBetween,
  cpuByProcess,
  GPUBudget,
  pool,
  refusesDryRun,
} from "./common.js";
import { productionBuild } from "./compare-go.js";

/** The three namespace sets, in the order each round measures them. */
export const SETS = ["none", "quota", "budget"] as const;
export type GuardSet = (typeof SETS)[number];
const LABEL: Record<GuardSet, string> = { none: "none", quota: "ResourceQuota", budget: "GPUBudget Deny" };

/** The issue's goals: Deny creates at least as fast as ResourceQuota's, its p99 at most 10 ms above. */
export const RATE_GOAL = 1.0;
export const P99_GOAL_MS = 10;

const QUOTA_RESOURCE = "requests.nvidia.com/gpu";
/** Pods name a scheduler nobody runs, so in --cluster mode kube-scheduler leaves them Pending. */
const NO_SCHEDULER = "kbts-bench-unscheduled";

export interface VsQuotaOptions {
  namespaces: number;
  /** Creates per set per round, spread over its namespaces. */
  creates: number;
  cap: number;
  rounds: number;
  concurrency: number;
  /** Creates per second of each steady stream (refused, and create+delete pairs); 0: no steady phase. */
  steadyRate: number;
  steadySeconds: number;
  steadyPods: number;
  cluster: boolean;
  /** The operator offers HTTP/2 (the scaffold's --enable-http2), which kube-apiserver's webhook client then uses. */
  enableHTTP2: boolean;
  project?: string;
}

/** main.ts's flags, as far as --vs-quota reads them. */
export interface VsQuotaFlags {
  namespaces?: string;
  creates?: string;
  cap?: string;
  rounds?: string;
  concurrency?: string;
  "steady-rate"?: string;
  "steady-seconds"?: string;
  "steady-pods"?: string;
  cluster?: boolean;
  "enable-http2"?: boolean;
  project?: string;
}

/** How many of `creates` go to each of `namespaces` namespaces: round-robin, the first ones one more. */
export function createsPerNamespace(creates: number, namespaces: number): number[] {
  const base = Math.floor(creates / namespaces);
  return Array.from({ length: namespaces }, (_, i) => base + (i < creates % namespaces ? 1 : 0));
}

/** The runs in the order measured: round 1 none, quota, budget; round 2 none, ... */
export function roundOrder(rounds: number): { round: number; set: GuardSet }[] {
  return Array.from({ length: rounds }, (_, r) => SETS.map((set) => ({ round: r + 1, set }))).flat();
}

/**
 * The options of a --vs-quota run from main.ts's flags (main.ts's --namespaces default is another
 * figure's, so this one's default applies when the flag is not given). A bad value is an error naming the flag.
 */
export function vsQuotaOptions(flags: VsQuotaFlags): VsQuotaOptions {
  const whole = (flag: keyof VsQuotaFlags, fallback: string, min: number) => {
    const text = String(flags[flag] ?? fallback);
    if (!/^[0-9]+$/.test(text) || Number(text) < min)
      throw new Error(`--${flag} must be a whole number >= ${min}, got "${text}"`);
    return Number(text);
  };
  const options: VsQuotaOptions = {
    namespaces: whole("namespaces", "30", 1),
    creates: whole("creates", "3000", 1),
    cap: whole("cap", "50", 1),
    rounds: whole("rounds", "2", 1),
    concurrency: whole("concurrency", "32", 1),
    steadyRate: whole("steady-rate", "20", 0),
    steadySeconds: whole("steady-seconds", "30", 1),
    steadyPods: whole("steady-pods", "3000", 1),
    cluster: flags.cluster === true,
    enableHTTP2: flags["enable-http2"] === true,
    ...(flags.project ? { project: flags.project } : {}),
  };
  const fewest = Math.min(...createsPerNamespace(options.creates, options.namespaces));
  if (fewest <= options.cap) {
    throw new Error(
      `--creates ${options.creates} over --namespaces ${options.namespaces} gives some namespace ${fewest} creates, not more than --cap ${options.cap}: give --creates above ${options.cap * options.namespaces} so every namespace ends full and refuses some pods`,
    );
  }
  return options;
}

/** What one set measured (a round, or several rounds merged). */
export interface SetFigures {
  set: GuardSet;
  attempted: number;
  admitted: number;
  refused: number;
  /** Creates that failed for another reason than a refusal (timeouts, 5xx): never hidden. */
  failed: number;
  seconds: number;
  /** Create latencies (ms), ascending. */
  latencies: number[];
  /** Namespaces not holding exactly their cap ("name: n/cap"); undefined for the uncapped set. */
  wrong?: string[];
  /** Calls kube-apiserver made to the Pod webhook while this set was created. */
  webhookCalls: number;
  /** Pods kube-apiserver refused with the budget-full admission policy, without a webhook call. */
  policyRefusals: number;
  /** GPUBudget status writes while this set was created (the webhook's and the controller's), and conflicts (409). */
  statusWrites: number;
  statusConflicts: number;
  /** CPU seconds each process spent while this set was created. */
  cpu: CPUSeconds;
}

/** Several rounds' figures of one set as one: sums, latencies together. */
export function mergeFigures(runs: readonly SetFigures[]): SetFigures {
  const first = runs[0];
  if (!first) throw new Error("mergeFigures: no runs");
  const sum = (pick: (f: SetFigures) => number) => runs.reduce((n, f) => n + pick(f), 0);
  return {
    set: first.set,
    attempted: sum((f) => f.attempted),
    admitted: sum((f) => f.admitted),
    refused: sum((f) => f.refused),
    failed: sum((f) => f.failed),
    seconds: sum((f) => f.seconds),
    latencies: runs.flatMap((f) => f.latencies).sort((a, b) => a - b),
    ...(first.wrong ? { wrong: runs.flatMap((f) => f.wrong ?? []) } : {}),
    webhookCalls: sum((f) => f.webhookCalls),
    policyRefusals: sum((f) => f.policyRefusals),
    statusWrites: sum((f) => f.statusWrites),
    statusConflicts: sum((f) => f.statusConflicts),
    cpu: Object.fromEntries(CPU_PROCESSES.map((name) => [name, sum((f) => f.cpu[name])])) as CPUSeconds,
  };
}

const rate = (f: SetFigures) => f.attempted / f.seconds;
const signed = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(1)}`;
const ms = (x: number) => x.toFixed(1);

/** "8.3 / 1.5 / 1.1 / 4.1 (15.0)": each process's CPU seconds and their sum. */
function cpuText(cpu: CPUSeconds): string {
  return `${CPU_PROCESSES.map((name) => cpu[name].toFixed(1)).join(" / ")} (${cpuTotal(cpu).toFixed(1)})`;
}

/** The per-set table (Markdown). */
export function setTable(sets: readonly SetFigures[], cap: number): string {
  const lines = [
    `| set | pods/s | admitted | refused | failed | create p50 / p99 (ms) | exact | webhook calls | policy refusals | budget status writes (409) | CPU-s: ${CPU_PROCESSES.join(" / ")} (total) |`,
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const f of sets) {
    const exact = f.wrong === undefined ? "n/a (no cap)" : f.wrong.length === 0 ? `yes (${cap} each)` : "NO";
    lines.push(
      `| ${LABEL[f.set]} | ${rate(f).toFixed(1)} | ${f.admitted} | ${f.refused} | ${f.failed} | ${ms(percentile(f.latencies, 50))} / ${ms(percentile(f.latencies, 99))} | ${exact} | ${f.webhookCalls} | ${f.policyRefusals} | ${f.statusWrites} (${f.statusConflicts}) | ${cpuText(f.cpu)} |`,
    );
  }
  return lines.join("\n");
}

/**
 * Why the budget figures do not measure the budget, or undefined when every create was checked against
 * it: sent to the webhook, or refused by the budget-full policy in kube-apiserver.
 */
function notMeasured(budget: {
  webhookCalls: number;
  policyRefusals: number;
  attempted: number;
}): string | undefined {
  return budget.webhookCalls + budget.policyRefusals < budget.attempted
    ? `not measured: the webhook was called ${budget.webhookCalls} times and the budget-full policy refused ${budget.policyRefusals} pods for ${budget.attempted} budget creates`
    : undefined;
}

/** The goal lines of the rounds: rate ratios, the p99 difference, exactness of both capped sets. */
export function roundGoalLines(none: SetFigures, quota: SetFigures, budget: SetFigures): string[] {
  const skipped = notMeasured(budget);
  const vsQuota = rate(budget) / rate(quota);
  const lines = [
    `Deny/ResourceQuota create rate ${vsQuota.toFixed(2)} (goal >= ${RATE_GOAL.toFixed(1)}): ${skipped ?? (vsQuota >= RATE_GOAL ? "met" : "NOT met")}`,
    `Deny/none create rate ${(rate(budget) / rate(none)).toFixed(2)}`,
    `Deny p99 − quota p99 = ${(percentile(budget.latencies, 99) - percentile(quota.latencies, 99)).toFixed(0)} ms (p50: ${(percentile(budget.latencies, 50) - percentile(quota.latencies, 50)).toFixed(0)} ms)`,
    `CPU per create, Deny/ResourceQuota ${(cpuTotal(budget.cpu) / budget.attempted / (cpuTotal(quota.cpu) / quota.attempted)).toFixed(2)}; Deny − ResourceQuota CPU-s: ${CPU_PROCESSES.map((name) => `${name} ${signed(budget.cpu[name] - quota.cpu[name])}`).join(", ")}`,
  ];
  for (const f of [quota, budget]) {
    const wrong = f.wrong ?? [];
    lines.push(`exact (${LABEL[f.set]}): ${wrong.length === 0 ? "yes" : `NO (${wrong.join(", ")})`}`);
  }
  if (none.webhookCalls > 0 || quota.webhookCalls > 0) {
    lines.push(
      `note: the webhook was called ${none.webhookCalls} times for "none" and ${quota.webhookCalls} for "quota" (expected 0)`,
    );
  }
  return lines;
}

/** What the steady phase measured for one capped set. */
export interface SteadyFigures {
  set: "quota" | "budget";
  /** Latencies (ms, ascending) of the creates that must be refused, and of the pair creates. */
  refusedLatencies: number[];
  pairLatencies: number[];
  /** Creates that ended otherwise than they should (a refused one admitted, a pair one refused...). */
  unexpected: string[];
  webhookCalls: number;
  policyRefusals: number;
  /** GPUBudget status writes during the phase, and how many were conflicts (409). */
  statusWrites: number;
  statusConflicts: number;
  attempted: number;
}

/** The steady phase's lines: p50/p99 of each stream and the goal on the p99 of all creates. */
export function steadyLines(quota: SteadyFigures, budget: SteadyFigures): string[] {
  const all = (f: SteadyFigures) => [...f.refusedLatencies, ...f.pairLatencies].sort((a, b) => a - b);
  const lines: string[] = [];
  for (const f of [quota, budget]) {
    lines.push(
      `${LABEL[f.set]}: refused creates p50 ${ms(percentile(f.refusedLatencies, 50))} / p99 ${ms(percentile(f.refusedLatencies, 99))} ms; pair creates p50 ${ms(percentile(f.pairLatencies, 50))} / p99 ${ms(percentile(f.pairLatencies, 99))} ms; all p50 ${ms(percentile(all(f), 50))} / p99 ${ms(percentile(all(f), 99))} ms; webhook calls ${f.webhookCalls}, policy refusals ${f.policyRefusals}${f.set === "budget" ? `, budget status writes ${f.statusWrites} (${f.statusConflicts} conflicts)` : ""}${f.unexpected.length > 0 ? `; UNEXPECTED: ${f.unexpected.length} (${reasons(f.unexpected)})` : ""}`,
    );
  }
  const diff = percentile(all(budget), 99) - percentile(all(quota), 99);
  const skipped = notMeasured(budget);
  lines.push(
    `Deny p99 − quota p99 = ${diff.toFixed(0)} ms (goal <= ${P99_GOAL_MS} ms): ${skipped ?? (diff <= P99_GOAL_MS ? "met" : "NOT met")}`,
  );
  return lines;
}

/** A pod asking for `gpus` (requests == limits, as extended resources must) that no scheduler takes. */
function gpuPod(namespace: string, name: string, gpus: number): PodObject {
  const gpu = { "nvidia.com/gpu": String(gpus) };
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace },
    spec: {
      schedulerName: NO_SCHEDULER,
      containers: [{ name: "c", image: "busybox", resources: { requests: gpu, limits: gpu } }],
    },
  };
}

type Outcome = "admitted" | "refused" | "failed";

const cpuTotal = (cpu: CPUSeconds) => CPU_PROCESSES.reduce((sum, name) => sum + cpu[name], 0);

/** Creates a pod and times it; a 403 is a refusal (admission said no), anything else thrown is a failure. */
async function timedCreate(
  client: APIClient,
  pod: PodObject,
): Promise<{ ms: number; outcome: Outcome; error?: string }> {
  const t0 = performance.now();
  try {
    await client.create(Pod, pod);
    return { ms: performance.now() - t0, outcome: "admitted" };
  } catch (err) {
    const took = performance.now() - t0;
    return {
      ms: took,
      outcome: err instanceof ForbiddenError ? "refused" : "failed",
      error: (err as Error).message,
    };
  }
}

/** Refusal messages by kind (numbers and names masked), most frequent first: "3× ..., 1× ...". */
export function reasons(messages: readonly string[], top = 3): string {
  const counts = new Map<string, number>();
  for (const m of messages) {
    const kind = m.replace(/vsq-[a-z0-9-]+/g, "<ns>").replace(/[0-9]+/g, "N");
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([kind, n]) => `${n}× ${kind}`)
    .join("; ");
}

/** main.ts --vs-quota: runs the comparison; returns the exit code (2 for a bad flag, printed once). */
export async function vsQuotaMain(flags: VsQuotaFlags): Promise<number> {
  let options: VsQuotaOptions;
  try {
    options = vsQuotaOptions(flags);
  } catch (err) {
    console.error(`error: ${(err as Error).message}`);
    return 2;
  }
  await runVsQuota(options);
  return 0;
}

export async function runVsQuota(options: VsQuotaOptions): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "kbts-bench-gpubudget-vs-quota-"));
  const project = options.project ?? join(work, "gpubudget");
  const loadAtStart = loadAverage();
  let cp: ControlPlane | undefined;
  let operator: Operator | undefined;
  try {
    if (!options.project) {
      console.log("scaffolding and building the GPUBudget project...");
      await scaffoldProject(project);
      await buildProject(project);
    }
    // --cluster: kube-controller-manager's resourcequota controller keeps the quotas' status. One node
    // satisfies cluster mode; the pods name no real scheduler, so none is placed or run.
    cp = await startControlPlane(
      project,
      options.cluster ? { cluster: { nodes: simulatedNodes(1, { "nvidia.com/gpu": "8" }) } } : {},
    );
    const c = cp;
    const client = createClient(c.env.kubeConfig);
    // The operator as its image runs it (the bundle, the image's node and ENV), as compare-go and
    // bench/scale run it: the tsc build spends more CPU per admission than what is deployed.
    const bundle = await productionBuild(project, await nodeLtsBin());
    console.log(`operator: the production build, ${bundle.described}`);
    operator = await startOperator(project, c, {
      name: "bench",
      logDir: join(work, "logs"),
      extraArgs: ["--zap-log-level=error", `--enable-http2=${options.enableHTTP2}`],
      command: bundle.command,
      env: bundle.env,
    });
    const operatorPid = operator.process.pid;
    const perNamespace = createsPerNamespace(options.creates, options.namespaces);
    console.log(
      `${options.rounds} round(s) of none, ResourceQuota, GPUBudget Deny; each set ${options.namespaces} fresh namespaces, cap ${options.cap} one-GPU pods each, ${options.creates} creates (${Math.min(...perNamespace)}-${Math.max(...perNamespace)} per namespace), ${options.concurrency} at a time`,
    );
    console.log(
      `webhook: HTTP/${options.enableHTTP2 ? "2 (--enable-http2)" : "1.1 (the scaffold's default)"}`,
    );
    console.log(
      `quota status: ${options.cluster ? "kube-controller-manager's resourcequota controller (--cluster)" : "written once by the bench (status.hard, used 0), as the resourcequota controller's first sync; no controller manager runs"}`,
    );

    let quotaProbeDone = false;
    /** A capped namespace made ready: its quota enforced, or its budget labelled and the webhook refusing. */
    const guard = async (set: GuardSet, namespace: string, cap: number) => {
      await client.create(Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
      if (set === "quota") {
        await client.create(ResourceQuota, {
          apiVersion: "v1",
          kind: "ResourceQuota",
          metadata: { name: "gpu", namespace },
          spec: { hard: { [QUOTA_RESOURCE]: String(cap) } },
        });
        if (!options.cluster) {
          if (!quotaProbeDone) {
            // What the quota admission plugin does before the controller's first sync (status.hard unset).
            quotaProbeDone = true;
            const probe = await timedCreate(client, gpuPod(namespace, "before-status", 1));
            console.log(
              `ResourceQuota with status.hard unset: a 1-GPU create was ${probe.outcome}${probe.error ? ` (${probe.error})` : ""}`,
            );
            if (probe.outcome === "admitted") await client.delete(Pod, { namespace, name: "before-status" });
          }
          await client.status().patch(
            ResourceQuota,
            { namespace, name: "gpu" },
            {
              type: "merge",
              data: { status: { hard: { [QUOTA_RESOURCE]: String(cap) }, used: { [QUOTA_RESOURCE]: "0" } } },
            },
          );
        }
        await refusesDryRun(client, namespace, cap + 1, "exceeded quota");
      } else if (set === "budget") {
        await client.create(GPUBudget, {
          apiVersion: "capacity.lab.example.com/v1alpha1",
          kind: "GPUBudget",
          metadata: { name: "budget", namespace },
          spec: { maxGPUs: cap, enforcement: "Deny" } as Budget["spec"],
        });
      }
    };
    /** Budgets enforcing (the operator labelled their namespaces) and the webhook refusing past the cap. */
    const budgetsEnforcing = async (namespaces: string[], cap: number) => {
      const wanted = new Set(namespaces);
      await eventually(
        async () => {
          const waiting = (await client.list(GPUBudget, {})).filter(
            (b) =>
              wanted.has(b.metadata?.namespace ?? "") &&
              !b.status?.conditions?.some((x) => x.type === "Enforcing" && x.status === "True"),
          );
          if (waiting.length > 0) throw new Error(`${waiting.length} budgets not yet Enforcing`);
        },
        120_000,
        200,
      );
      for (const namespace of namespaces)
        await refusesDryRun(client, namespace, cap + 1, "admission webhook");
    };
    /** Untimed clean-up: the pods (deletecollection: no namespace controller runs without --cluster), the namespaces. */
    const remove = async (namespaces: string[]) => {
      await pool(namespaces, 4, async (namespace) => {
        await c.kubectl(["delete", "--raw", `/api/v1/namespaces/${namespace}/pods`]);
        await client.delete(Namespace, { name: namespace });
      });
    };

    const runs: SetFigures[] = [];
    for (const { round, set } of roundOrder(options.rounds)) {
      const names = Array.from(
        { length: options.namespaces },
        (_, i) => `vsq-r${round}-${set}-${String(i).padStart(3, "0")}`,
      );
      for (const namespace of names) await guard(set, namespace, options.cap);
      if (set === "budget") await budgetsEnforcing(names, options.cap);
      const pods = perNamespace
        .flatMap((n, i) => Array.from({ length: n }, (_, k) => ({ i, k })))
        // Interleaved over the namespaces, so every namespace fills (and refuses) under concurrency.
        .sort((a, b) => a.k - b.k || a.i - b.i)
        .map(({ i, k }) => gpuPod(names[i] as string, `p-${k}`, 1));
      const checks0 = await budgetChecks(c);
      const cpu0 = cpuByProcess(operatorPid);
      const results: { ms: number; outcome: Outcome; error?: string }[] = [];
      const t0 = performance.now();
      await pool(pods, options.concurrency, async (pod) => {
        results.push(await timedCreate(client, pod));
      });
      const seconds = (performance.now() - t0) / 1000;
      const cpu = cpuBetween(cpu0, cpuByProcess(operatorPid));
      const checks = await budgetChecks(c);
      const calls = checks.webhookCalls - checks0.webhookCalls;
      const refusedByPolicy = checks.policyRefusals - checks0.policyRefusals;
      // Where a budget create's time goes in kube-apiserver: the webhook call, and the status writes.
      const waits = (pick: (x: typeof checks) => Map<number, number>) =>
        [0.5, 0.99].map((q) => {
          const s = histogramQuantile(pick(checks0), pick(checks), q);
          return s === undefined ? "-" : ms(s * 1000);
        });
      const [webhook50, webhook99] = waits((x) => x.webhookSeconds);
      const [write50, write99] = waits((x) => x.statusWriteSeconds);
      let wrong: string[] | undefined;
      if (set !== "none") {
        wrong = [];
        for (const namespace of names) {
          const held = (await client.list(Pod, { namespace })).length;
          if (held !== options.cap) wrong.push(`${namespace}: ${held}/${options.cap}`);
        }
      }
      const figures: SetFigures = {
        set,
        attempted: pods.length,
        admitted: results.filter((r) => r.outcome === "admitted").length,
        refused: results.filter((r) => r.outcome === "refused").length,
        failed: results.filter((r) => r.outcome === "failed").length,
        seconds,
        latencies: results.map((r) => r.ms).sort((a, b) => a - b),
        ...(wrong ? { wrong } : {}),
        webhookCalls: calls,
        policyRefusals: refusedByPolicy,
        statusWrites: checks.statusWrites - checks0.statusWrites,
        statusConflicts: checks.statusConflicts - checks0.statusConflicts,
        cpu,
      };
      runs.push(figures);
      console.log(
        `round ${round} ${LABEL[set]}: ${rate(figures).toFixed(1)} pods/s, ${figures.admitted} admitted, ${figures.refused} refused, ${figures.failed} failed, p50 ${ms(percentile(figures.latencies, 50))} / p99 ${ms(percentile(figures.latencies, 99))} ms, webhook calls ${calls}, policy refusals ${refusedByPolicy}, budget status writes ${figures.statusWrites} (${figures.statusConflicts} conflicts)${set === "budget" ? `; in kube-apiserver: webhook call p50 ${webhook50} / p99 ${webhook99} ms, status write p50 ${write50} / p99 ${write99} ms` : ""} (load ${loadAverage()})`,
      );
      console.log(
        `  CPU-s while creating: ${CPU_PROCESSES.map((name) => `${name} ${cpu[name].toFixed(2)}`).join(", ")}`,
      );
      const notAdmitted = results.flatMap((r) =>
        r.outcome === "admitted" ? [] : [`${r.outcome}: ${r.error ?? ""}`],
      );
      if (notAdmitted.length > 0) console.log(`  not admitted: ${reasons(notAdmitted)}`);
      await remove(names);
    }
    const merged = SETS.map((set) => mergeFigures(runs.filter((r) => r.set === set)));
    const [none, quota, budget] = merged as [SetFigures, SetFigures, SetFigures];
    console.log(`\n${options.rounds} round(s) together:`);
    console.log(setTable(merged, options.cap));
    for (const line of roundGoalLines(none, quota, budget)) console.log(line);

    if (options.steadyRate > 0) {
      const pairs = options.steadyRate * options.steadySeconds;
      // Room for every pair create: without a controller manager the quota's used is never lowered on delete.
      const cap = options.steadyPods + pairs + 1;
      console.log(
        `\nsteady: one namespace per capped set holding ${options.steadyPods} pods (cap ${cap}); for ${options.steadySeconds} s, ${options.steadyRate}/s creates asking more GPUs than the room (all refused) and ${options.steadyRate}/s one-GPU create+delete pairs below the cap`,
      );
      const steady: SteadyFigures[] = [];
      for (const set of ["quota", "budget"] as const) {
        const namespace = `vsq-steady-${set}`;
        await guard(set, namespace, cap);
        if (set === "budget") await budgetsEnforcing([namespace], cap);
        // Filled to exactly --steady-pods: a create refused on the way (e.g. a busy budget) is tried again.
        let fill = Array.from({ length: options.steadyPods }, (_, k) => gpuPod(namespace, `f-${k}`, 1));
        const f0 = performance.now();
        const fillRefusals: string[] = [];
        for (let pass = 0; fill.length > 0 && pass < 5; pass++) {
          const again: PodObject[] = [];
          await pool(fill, options.concurrency, async (pod) => {
            const r = await timedCreate(client, pod);
            if (r.outcome !== "admitted") {
              again.push(pod);
              fillRefusals.push(`${r.outcome}: ${r.error ?? ""}`);
            }
          });
          fill = again;
        }
        const held = (await client.list(Pod, { namespace })).length;
        console.log(
          `${LABEL[set]}: filled to ${held} pods in ${((performance.now() - f0) / 1000).toFixed(1)} s${fillRefusals.length > 0 ? `; ${fillRefusals.length} fill creates not admitted and tried again: ${reasons(fillRefusals)}` : ""}`,
        );
        if (set === "budget") {
          // The budget's status counts the pods and its reservations expire: start from that steady state.
          const s0 = performance.now();
          await eventually(
            async () => {
              const b = await client.get(GPUBudget, { namespace, name: "budget" });
              const reserved =
                (b.status as { reservations?: unknown[] } | undefined)?.reservations?.length ?? 0;
              if (b.status?.allocatedGPUs !== held || reserved > 0)
                throw new Error(
                  `budget: ${b.status?.allocatedGPUs} allocated, ${reserved} reservations; want ${held}, 0`,
                );
            },
            300_000,
            500,
          );
          console.log(
            `${LABEL[set]}: budget status settled (${held} allocated, no reservations) ${((performance.now() - s0) / 1000).toFixed(1)} s after the fill`,
          );
        }
        // More than the room at any time: the room only shrinks while the pairs run.
        const tooBig = cap - held + 1;
        const figures: SteadyFigures = {
          set,
          refusedLatencies: [],
          pairLatencies: [],
          unexpected: [],
          webhookCalls: 0,
          policyRefusals: 0,
          statusWrites: 0,
          statusConflicts: 0,
          attempted: 2 * pairs,
        };
        const checks0 = await budgetChecks(c);
        const started = performance.now();
        const inflight: Promise<void>[] = [];
        for (let k = 0; k < pairs; k++) {
          // Open loop: each create starts on its tick, whether or not earlier ones have answered.
          const due = started + (k * 1000) / options.steadyRate;
          const wait = due - performance.now();
          if (wait > 0) await sleep(wait);
          inflight.push(
            (async () => {
              const r = await timedCreate(client, gpuPod(namespace, `x-${k}`, tooBig));
              figures.refusedLatencies.push(r.ms);
              if (r.outcome !== "refused") figures.unexpected.push(`x-${k} ${r.outcome}: ${r.error ?? ""}`);
            })(),
            (async () => {
              const r = await timedCreate(client, gpuPod(namespace, `s-${k}`, 1));
              figures.pairLatencies.push(r.ms);
              if (r.outcome !== "admitted") figures.unexpected.push(`s-${k} ${r.outcome}: ${r.error ?? ""}`);
              // A slow delete (an overloaded API server) is shown, and does not end the run.
              else
                await client
                  .delete(Pod, { namespace, name: `s-${k}` })
                  .catch((err: Error) => figures.unexpected.push(`s-${k} delete failed: ${err.message}`));
            })(),
          );
        }
        await Promise.all(inflight);
        const checks = await budgetChecks(c);
        figures.webhookCalls = checks.webhookCalls - checks0.webhookCalls;
        figures.policyRefusals = checks.policyRefusals - checks0.policyRefusals;
        figures.statusWrites = checks.statusWrites - checks0.statusWrites;
        figures.statusConflicts = checks.statusConflicts - checks0.statusConflicts;
        figures.refusedLatencies.sort((a, b) => a - b);
        figures.pairLatencies.sort((a, b) => a - b);
        steady.push(figures);
        await remove([namespace]);
      }
      for (const line of steadyLines(steady[0] as SteadyFigures, steady[1] as SteadyFigures))
        console.log(line);
    }
    console.log(
      `load average (1/5/15 min): ${loadAtStart} at the start, ${loadAverage()} at the end, on ${availableParallelism()} CPUs`,
    );
  } finally {
    await operator?.stop().catch(() => undefined);
    await cp?.stop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
}
