/**
 * Cold start of the envtest control plane: etcd + kube-apiserver healthy + one CRD served.
 *   npx tsx bench/envtest-start/main.ts [--runs N]
 * Each run starts from nothing (new temp dirs, certs, ports) and is stopped before the next; prints the
 * median, min and max, plus the stop time. Binaries come from KUBEBUILDER_ASSETS or the setup-envtest store.
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { startEnvironment } from "@kbts/runtime/envtest";

const CRDS = fileURLToPath(new URL("../../runtime/src/envtest/testdata/crds/widgets.yaml", import.meta.url));
const i = process.argv.indexOf("--runs");
const RUNS = i >= 0 ? Number(process.argv[i + 1]) : 5;
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error("--runs takes a positive integer");

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};
const sec = (ms: number) => `${(ms / 1000).toFixed(2)}s`;

const starts: number[] = [];
const stops: number[] = [];
const phases = {
  etcd: [] as number[],
  apiserver: [] as number[],
  defaultNamespace: [] as number[],
  crds: [] as number[],
};
for (let run = 1; run <= RUNS; run++) {
  const t0 = performance.now();
  const env = await startEnvironment({ crdDirectoryPaths: [CRDS] });
  const started = performance.now() - t0;
  const t1 = performance.now();
  await env.stop();
  const stopped = performance.now() - t1;
  starts.push(started);
  stops.push(stopped);
  phases.etcd.push(env.timings.etcdMs);
  phases.apiserver.push(env.timings.apiServerMs);
  phases.defaultNamespace.push(env.timings.defaultNamespaceMs);
  phases.crds.push(env.timings.crdsMs);
  process.stderr.write(
    `run ${run}/${RUNS}: start ${sec(started)}, stop ${sec(stopped)} (${join(env.binaries?.etcd ?? "", "..")})\n`,
  );
}
process.stdout.write(
  [
    `envtest cold start (etcd + kube-apiserver healthy + CRDs served), ${RUNS} runs:`,
    `  median ${sec(median(starts))}  min ${sec(Math.min(...starts))}  max ${sec(Math.max(...starts))}`,
    `  phases (median): etcd healthy ${sec(median(phases.etcd))}, kube-apiserver healthy ${sec(median(phases.apiserver))}, default namespace ${sec(median(phases.defaultNamespace))}, CRDs served ${sec(median(phases.crds))}`,
    `  stop: median ${sec(median(stops))}`,
    "",
  ].join("\n"),
);
