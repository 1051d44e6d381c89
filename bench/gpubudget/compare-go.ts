/**
 * bench/gpubudget --compare-go: the scaffolded TypeScript GPUBudget operator against its Go port
 * (bench/gpubudget/go: Kubebuilder v4.16, controller-runtime v0.25), each on a fresh, identical local
 * control plane, interleaved TS, Go, TS, Go (--rounds pairs) so a shared machine's load falls on both.
 * Each run: namespaces with one budget each, the operator started and measured once idle (footprint.ts),
 * then the pods created, the time until every budget is correct, the pod change -> status latency, and
 * the process's peak RSS and CPU. Prints one line per run and the side-by-side table (medians, TS/Go).
 *
 * The TypeScript operator runs twice per round: as developed (`node dist/cmd/main.js`, tsc output and
 * node_modules) and as its image runs it (the production build of `make build-bundle`, on the Node.js
 * LTS the Dockerfile pins, with the environment its ENV sets). The table's TS/Go ratios and goals are
 * the production build's.
 *
 * Both sides are compared on the reconcile side: no ValidatingWebhookConfiguration is installed, so the
 * API server calls no webhook. The TypeScript operator runs as deployed (its webhook server is up but
 * never called); the Go port has no webhook.
 */
import { lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { imageEnv } from "../../e2e/support/dockerfile.js";
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
import { run } from "../../e2e/support/run.js";
import { loadAverage, percentile } from "../../e2e/support/stats.js";
import type { Pod as PodObject } from "../../runtime/src/api/core.js";
import { Pod } from "../../runtime/src/api/kinds.js";
import { createClient } from "../../runtime/src/client/index.js";
import { createBudgets, GPUBudget, ns, pool, startupReconciled, statusLatencies } from "./common.js";
import { cpuSeconds, DEFAULT_IDLE_RULE, peakRSSMiB, waitForIdle } from "./footprint.js";
import { cachedGoOperator } from "./go-operator.js";

export interface CompareGoOptions {
  pods: number;
  namespaces: number;
  samples: number;
  /** Pairs of runs, TS then Go each time. */
  rounds: number;
  concurrency: number;
  maxConcurrentReconciles: number;
  /** An already scaffolded and built TypeScript project. */
  project?: string;
}

/** TS: tsc output and node_modules (`make build`); bundle: the production build (`make build-bundle`). */
export type Side = "TS" | "bundle" | "Go";

/** What one operator run measured. */
export interface RunFigures {
  side: Side;
  /** From the last pod create until every budget's status is correct (s). */
  convergedSeconds: number;
  statusP50Ms: number;
  statusP99Ms: number;
  peakRSSMiB: number;
  idleRSSMiB: number;
  cpuWholeSeconds: number;
  cpuStartToIdleSeconds: number;
  /** From the process's start to its first /readyz 200 (s). */
  readySeconds: number;
}

/** The table's rows: label, how a run's figure is read, its unit and the issue's goal for TS/Go. */
const MEASURES: {
  label: string;
  unit: string;
  digits: number;
  pick: (r: RunFigures) => number[];
  goal?: number;
}[] = [
  { label: "all budgets correct after last create", unit: "s", digits: 2, pick: (r) => [r.convergedSeconds] },
  {
    label: "pod change → status p50 / p99",
    unit: "ms",
    digits: 1,
    pick: (r) => [r.statusP50Ms, r.statusP99Ms],
  },
  { label: "peak RSS", unit: "MiB", digits: 0, pick: (r) => [r.peakRSSMiB], goal: 1.0 },
  { label: "idle RSS after cache sync", unit: "MiB", digits: 0, pick: (r) => [r.idleRSSMiB], goal: 1.15 },
  { label: "CPU, whole run", unit: "s", digits: 2, pick: (r) => [r.cpuWholeSeconds] },
  { label: "CPU, start to idle", unit: "s", digits: 2, pick: (r) => [r.cpuStartToIdleSeconds], goal: 2.5 },
  { label: "process start → /readyz 200", unit: "s", digits: 2, pick: (r) => [r.readySeconds], goal: 1.5 },
];

/** main.ts's flags, as far as --compare-go reads them. */
export interface CompareGoFlags {
  pods?: string;
  namespaces?: string;
  samples?: string;
  rounds?: string;
  concurrency?: string;
  "max-concurrent-reconciles"?: string;
  project?: string;
}

/** The options of a --compare-go run from its flags; a bad count is an error naming the flag. */
export function compareGoOptions(flags: CompareGoFlags): CompareGoOptions {
  const count = (flag: keyof CompareGoFlags, fallback: string) => {
    const text = flags[flag] ?? fallback;
    if (!/^[1-9][0-9]*$/.test(text))
      throw new Error(`--${flag} must be a positive whole number, got "${text}"`);
    return Number(text);
  };
  const options: CompareGoOptions = {
    pods: count("pods", "10000"),
    namespaces: count("namespaces", "100"),
    samples: count("samples", "200"),
    rounds: count("rounds", "2"),
    concurrency: count("concurrency", "32"),
    maxConcurrentReconciles: count("max-concurrent-reconciles", "4"),
    ...(flags.project ? { project: flags.project } : {}),
  };
  if (options.samples > options.pods) {
    throw new Error(
      `--samples (${options.samples}) cannot exceed --pods (${options.pods}): each sample changes one pod`,
    );
  }
  return options;
}

/** main.ts --compare-go: runs the comparison; returns the exit code (2 for a bad flag, printed once). */
export async function compareGoMain(flags: CompareGoFlags): Promise<number> {
  let options: CompareGoOptions;
  try {
    options = compareGoOptions(flags);
  } catch (err) {
    console.error(`error: ${(err as Error).message}`);
    return 2;
  }
  await runCompareGo(options);
  return 0;
}

/** The median; of an even count, the mean of the middle two (with two rounds: their mean). */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * The side-by-side table (Markdown) of medians over the runs of each side; Go's column says why it is
 * empty. TS/Go and the goals are the production build's (its runs), or tsc's when it has none.
 */
export function compareTable(runs: readonly RunFigures[], goSkipped?: string): string {
  const of = (side: Side) => runs.filter((r) => r.side === side);
  const prod: Side = of("bundle").length > 0 ? "bundle" : "TS";
  const lines = [
    "| measure | kbts (tsc + node_modules) | kbts (production build) | controller-runtime (Go) | TS/Go | goal |",
    "|---|---|---|---|---|---|",
  ];
  for (const m of MEASURES) {
    const figures = (side: Side) => {
      const rs = of(side);
      if (rs.length === 0) return undefined;
      const parts = m.pick(rs[0] as RunFigures).map((_, i) => median(rs.map((r) => m.pick(r)[i] as number)));
      return parts;
    };
    const tsc = figures("TS");
    const ts = figures(prod);
    const go = figures("Go");
    const show = (xs: number[] | undefined) =>
      xs ? `${xs.map((x) => x.toFixed(m.digits)).join(" / ")} ${m.unit}` : goSkipped ? "skipped" : "n/a";
    const ratio = ts && go ? ts.map((t, i) => (t / (go[i] as number)).toFixed(2)).join(" / ") : "n/a";
    const goal =
      m.goal === undefined
        ? ""
        : ts && go
          ? `≤ ${m.goal}× ${ts.every((t, i) => Number((t / (go[i] as number)).toFixed(2)) <= (m.goal as number)) ? "(met)" : "(not met)"}`
          : `≤ ${m.goal}×`;
    const showTS = (xs: number[] | undefined) =>
      xs ? `${xs.map((x) => x.toFixed(m.digits)).join(" / ")} ${m.unit}` : "n/a";
    lines.push(
      `| ${m.label} | ${showTS(tsc)} | ${showTS(figures("bundle"))} | ${show(go)} | ${ratio} | ${goal} |`,
    );
  }
  return lines.join("\n");
}

/**
 * Builds the project's production build (`make build-bundle`'s hack/build-bundle.mjs) with the node its
 * image runs (the compile cache is that node's); returns how to run it as the image does: that node,
 * dist/manager/manager.mjs, and the image's environment (the Dockerfile's ENV: V8's heap flags).
 */
export async function productionBuild(
  project: string,
  imageNode: string,
): Promise<{ command: string[]; env: Record<string, string>; described: string }> {
  await run("node", ["hack/build-bundle.mjs"], {
    cwd: project,
    env: { PATH: `${imageNode}:${process.env.PATH ?? ""}` },
  });
  const env = imageEnv(project);
  const command = [join(imageNode, "node"), "dist/manager/manager.mjs"];
  const envText = Object.entries(env)
    .map(([name, value]) => `${name}=${value} `)
    .join("");
  return { command, env, described: `${envText}${command[0]} ${join(project, command[1] as string)}` };
}

export async function runCompareGo(options: CompareGoOptions): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "kbts-bench-gpubudget-compare-"));
  const project = options.project ?? join(work, "gpubudget");
  const go = await cachedGoOperator();
  const imageNode = await nodeLtsBin();
  const loadAtStart = loadAverage();
  try {
    if (!go.ok) console.log(`Go baseline skipped: ${go.reason}`);
    if (!options.project) {
      console.log("scaffolding and building the GPUBudget project...");
      await scaffoldProject(project);
      await buildProject(project);
    }
    const bundle = await productionBuild(project, imageNode);
    const bundleEnv = bundle.env;
    console.log(
      `TS: node ${process.version} ${join(project, "dist/cmd/main.js")}; production build: ${bundle.described}${go.ok ? `; Go: ${go.bin} (bench/gpubudget/go)` : ""}`,
    );
    console.log(
      `${options.pods} pods in ${options.namespaces} namespaces (one GPUBudget each), --max-concurrent-reconciles=${options.maxConcurrentReconciles}, ${options.rounds} round(s) of TS then Go, each on a fresh control plane`,
    );
    console.log(
      "reconcile side only: no ValidatingWebhookConfiguration is installed on either control plane (the TS operator runs as deployed, its webhook server up but never called; the Go port has no webhook)",
    );
    console.log(
      `idle: the first ${DEFAULT_IDLE_RULE.windowMs / 1000} s window after cache sync and the start-up reconciles in which the process's CPU grew by at most ${DEFAULT_IDLE_RULE.maxCpuSeconds} s (footprint.ts)`,
    );
    const runs: RunFigures[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      for (const side of ["TS", "bundle", "Go"] as const) {
        if (side === "Go" && !go.ok) continue;
        const command = side === "Go" && go.ok ? [go.bin] : side === "bundle" ? bundle.command : undefined;
        const env = side === "bundle" ? bundleEnv : undefined;
        const figures = await runOnce(side, project, work, options, command, env);
        runs.push(figures);
        console.log(
          `round ${round} ${side}: correct ${figures.convergedSeconds.toFixed(2)} s after the last create; status p50 ${figures.statusP50Ms.toFixed(1)} / p99 ${figures.statusP99Ms.toFixed(1)} ms; RSS idle ${figures.idleRSSMiB.toFixed(0)} / peak ${figures.peakRSSMiB.toFixed(0)} MiB; CPU start to idle ${figures.cpuStartToIdleSeconds.toFixed(2)} s, whole run ${figures.cpuWholeSeconds.toFixed(2)} s (load ${loadAverage()})`,
        );
      }
    }
    console.log(`\nmedians over ${options.rounds} run(s) each:`);
    console.log(compareTable(runs, go.ok ? undefined : go.reason));
    console.log(`\n${await sizesTable(project, imageNode, go.ok ? go.bin : undefined)}`);
    console.log(
      `load average (1/5/15 min): ${loadAtStart} at the start, ${loadAverage()} at the end, on ${availableParallelism()} CPUs`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** One operator on a fresh control plane: namespaces and budgets, start to idle, pods, convergence, latency. */
async function runOnce(
  side: Side,
  project: string,
  work: string,
  options: CompareGoOptions,
  command: string[] | undefined,
  env?: Record<string, string>,
): Promise<RunFigures> {
  let cp: ControlPlane | undefined;
  let operator: Operator | undefined;
  try {
    cp = await startControlPlane(project);
    // The reconcile side only: the API server calls no webhook on either side.
    await cp.kubectl(["delete", "validatingwebhookconfigurations", "--all"]);
    const client = createClient(cp.env.kubeConfig);
    const perNs = Math.ceil(options.pods / options.namespaces);
    await createBudgets(client, options.namespaces, perNs);
    operator = await startOperator(project, cp, {
      name: side,
      logDir: join(work, "logs"),
      extraArgs: [`--max-concurrent-reconciles=${options.maxConcurrentReconciles}`, "--zap-log-level=error"],
      ...(command ? { command } : {}),
      ...(env ? { env } : {}),
    });
    const pid = operator.process.pid ?? 0;
    const idle = await waitForIdle(pid, () => startupReconciled(client));

    const pods: PodObject[] = Array.from({ length: options.pods }, (_, i) => ({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: `p-${i}`, namespace: ns(i % options.namespaces) },
      spec: {
        containers: [{ name: "c", image: "busybox", resources: { limits: { "nvidia.com/gpu": "1" } } }],
      },
    }));
    const expected = new Map<string, number>();
    for (const p of pods) {
      const namespace = p.metadata?.namespace ?? "";
      expected.set(namespace, (expected.get(namespace) ?? 0) + 1);
    }
    await pool(pods, options.concurrency, async (p) => {
      await client.create(Pod, p);
    });
    const lastCreate = performance.now();
    await eventually(
      async () => {
        const wrong = (await client.list(GPUBudget, {})).filter(
          (b) => b.status?.allocatedGPUs !== expected.get(b.metadata?.namespace ?? ""),
        );
        if (wrong.length > 0) throw new Error(`${side}: ${wrong.length} budgets not yet correct`);
      },
      600_000,
      100,
    );
    const converged = performance.now();

    // Latency: a watch on budgets timestamps each status update after a pod's phase goes Succeeded.
    const latencies = await statusLatencies(cp.env.kubeConfig, client, pods, expected, options.samples);
    return {
      side,
      convergedSeconds: (converged - lastCreate) / 1000,
      statusP50Ms: percentile(latencies, 50),
      statusP99Ms: percentile(latencies, 99),
      peakRSSMiB: peakRSSMiB(pid),
      idleRSSMiB: idle.rssMiB,
      cpuWholeSeconds: cpuSeconds(pid),
      cpuStartToIdleSeconds: idle.cpuSeconds,
      readySeconds: operator.readyMs / 1000,
    };
  } finally {
    await operator?.stop().catch(() => undefined);
    await cp?.stop().catch(() => undefined);
  }
}

/** Bytes of a file, or of a directory's files (symbolic links not followed). */
function sizeOf(path: string): number {
  const st = lstatSync(path);
  if (!st.isDirectory()) return st.isFile() ? st.size : 0;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * What each image ships besides its base: the production build (dist/manager) and node; the same
 * operator the old way (tsc's dist/ and the production node_modules, as `npm prune --omit=dev` left
 * them; @kbts/runtime counted as its published files); the Go binary.
 */
async function sizesTable(project: string, imageNode: string, goBin: string | undefined): Promise<string> {
  const node = sizeOf(join(imageNode, "node"));
  const bundle = sizeOf(join(project, "dist/manager"));
  const ls = await execa("npm", ["ls", "--omit=dev", "--all", "--parseable"], {
    cwd: project,
    reject: false,
  });
  let modules = 0;
  for (const dir of ls.stdout.split("\n").slice(1).filter(Boolean)) {
    const runtime = lstatSync(join(project, "node_modules/@kbts/runtime")).isSymbolicLink();
    // A linked @kbts/runtime is the checkout: count what its package publishes (dist, package.json).
    modules +=
      runtime && dir.endsWith("/runtime") && !dir.includes("node_modules")
        ? sizeOf(join(dir, "dist")) + sizeOf(join(dir, "package.json"))
        : sizeOf(dir);
  }
  const tsc = ["api", "cmd", "internal"].reduce((sum, d) => sum + sizeOf(join(project, "dist", d)), 0);
  return [
    "| image payload | size |",
    "|---|---|",
    `| production build: dist/manager (bundle, source maps, compile cache) | ${mib(bundle)} |`,
    `| + node ${imageNode.includes("node-") ? (/node-([\d.]+)/.exec(imageNode)?.[1] ?? "") : ""} binary | ${mib(node)} (total ${mib(bundle + node)}) |`,
    `| old way: tsc dist/ + production node_modules (+ node) | ${mib(tsc + modules)} (total ${mib(tsc + modules + node)}) |`,
    `| Go: manager binary | ${goBin ? mib(sizeOf(goBin)) : "n/a"} |`,
  ].join("\n");
}
