/**
 * Warm standbys (issue 17.4): time from SIGKILL of the leader to the new leader's first reconcile,
 * with the standby cold (informers start once it leads: a relist) and warm (enableWarmup: listed
 * before it led). N pods (default 10,000) in 100 namespaces on a local envtest control plane; each
 * replica is a manager process with a controller for Pods; lease 2 s / renew 1.5 s / retry 100 ms.
 * The kill follows a lease renewal, so "kill → leading" is about the lease duration in both modes.
 *
 *   KUBEBUILDER_ASSETS=... npx tsx bench/failover/main.ts [--pods 10000] [--runs 1]
 */
import {
  createPods,
  describeTiming,
  type FailoverTiming,
  measureFailover,
} from "../../e2e/support/failover.js";
import { startEnvironment } from "../../runtime/src/envtest/index.js";
import { createClient } from "../../runtime/src/index.js";
import { benchArgs } from "../args.js";

const { values } = benchArgs("bench/failover", {
  pods: { type: "string", default: "10000" },
  runs: { type: "string", default: "1" },
});
const PODS = Number(values.pods);
const RUNS = Number(values.runs);
const NAMESPACES = Array.from({ length: 100 }, (_, i) => `failover-${String(i).padStart(3, "0")}`);

const env = await startEnvironment();
try {
  const client = createClient(env.kubeConfig);
  const t0 = Date.now();
  await createPods(client, NAMESPACES, PODS);
  console.log(
    `created ${PODS} pods in ${NAMESPACES.length} namespaces in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  const results: FailoverTiming[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (const warm of [false, true]) {
      const t = await measureFailover({
        client,
        kubeconfigPath: env.kubeconfigPath,
        leaseNamespace: "default",
        warm,
      });
      console.log(`run ${i + 1}: ${describeTiming(t)}`);
      results.push(t);
    }
  }
  const median = (mode: "cold" | "warm", key: keyof FailoverTiming) => {
    const xs = results
      .filter((r) => r.mode === mode)
      .map((r) => r[key] as number)
      .sort((a, b) => a - b);
    return xs[Math.floor(xs.length / 2)] ?? Number.NaN;
  };
  console.log(`\nfailover with ${PODS} pods (median of ${RUNS}):`);
  for (const mode of ["cold", "warm"] as const) {
    console.log(
      `  ${mode}: kill → first reconcile ${median(mode, "killToFirstReconcileMs")} ms (leading → first reconcile ${median(mode, "leadingToFirstReconcileMs")} ms)`,
    );
  }
} finally {
  await env.stop();
}
