/**
 * Cold start of the envtest control plane, in both modes:
 *   plain:   etcd + kube-apiserver healthy + one CRD served;
 *   cluster: the same plus kube-controller-manager, kube-scheduler and kwok healthy and 3 simulated nodes Ready.
 *   npx tsx bench/envtest-start/main.ts [--runs N] [--mode plain|cluster|both]
 * Each run starts from nothing (new temp dirs, certs, ports) and is stopped before the next; prints the
 * median, min and max, plus the stop time. Binaries come from KUBEBUILDER_ASSETS or the setup-envtest store
 * (cluster mode needs `kbts setup-envtest use --cluster`; without its binaries that mode is reported skipped).
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import {
  type EnvironmentOptions,
  resolveClusterBinaries,
  type StartTimings,
  simulatedNodes,
  startEnvironment,
} from "@kbts/runtime/envtest";

const CRDS = fileURLToPath(new URL("../../runtime/src/envtest/testdata/crds/widgets.yaml", import.meta.url));
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const RUNS = Number(arg("--runs") ?? 5);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error("--runs takes a positive integer");
const MODE = arg("--mode") ?? "both";
if (!["plain", "cluster", "both"].includes(MODE)) throw new Error("--mode takes plain, cluster or both");

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};
const sec = (ms: number) => `${(ms / 1000).toFixed(2)}s`;

async function measure(label: string, options: EnvironmentOptions): Promise<string[]> {
  const starts: number[] = [];
  const stops: number[] = [];
  const phases: Record<keyof Omit<StartTimings, "attempts">, number[]> = {
    etcdMs: [],
    apiServerMs: [],
    defaultNamespaceMs: [],
    clusterMs: [],
    crdsMs: [],
  };
  for (let run = 1; run <= RUNS; run++) {
    const t0 = performance.now();
    const env = await startEnvironment(options);
    const started = performance.now() - t0;
    const t1 = performance.now();
    await env.stop();
    const stopped = performance.now() - t1;
    starts.push(started);
    stops.push(stopped);
    for (const k of Object.keys(phases) as (keyof typeof phases)[]) phases[k].push(env.timings[k]);
    process.stderr.write(
      `${label} run ${run}/${RUNS}: start ${sec(started)}, stop ${sec(stopped)} (${join(env.binaries?.etcd ?? "", "..")})\n`,
    );
  }
  return [
    `  median ${sec(median(starts))}  min ${sec(Math.min(...starts))}  max ${sec(Math.max(...starts))}`,
    `  phases (median): etcd healthy ${sec(median(phases.etcdMs))}, kube-apiserver healthy ${sec(median(phases.apiServerMs))}, default namespace ${sec(median(phases.defaultNamespaceMs))}${options.cluster ? `, controller manager + scheduler + kwok healthy and nodes Ready ${sec(median(phases.clusterMs))}` : ""}, CRDs served ${sec(median(phases.crdsMs))}`,
    `  stop: median ${sec(median(stops))}`,
  ];
}

const lines: string[] = [];
if (MODE !== "cluster") {
  lines.push(`envtest cold start, plain (etcd + kube-apiserver healthy + CRDs served), ${RUNS} runs:`);
  lines.push(...(await measure("plain", { crdDirectoryPaths: [CRDS] })));
}
if (MODE !== "plain") {
  lines.push(
    `envtest cold start, cluster mode (plain + controller manager, scheduler, kwok, 3 nodes Ready), ${RUNS} runs:`,
  );
  let ready = true;
  try {
    resolveClusterBinaries();
  } catch (err) {
    ready = false;
    lines.push(
      `  skipped: ${(err as Error).message.split(";")[0]} (run \`kbts setup-envtest use --cluster\`)`,
    );
  }
  if (ready) {
    const nodes = simulatedNodes(3, { "nvidia.com/gpu": "8" });
    lines.push(...(await measure("cluster", { crdDirectoryPaths: [CRDS], cluster: { nodes } })));
  }
}
process.stdout.write(`${lines.join("\n")}\n`);
