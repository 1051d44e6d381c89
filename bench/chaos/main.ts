// bench/chaos: the GPUBudget operator (two leader-elected replicas) under pod churn and one fault after
// another (apiserver kill and pause, etcd compaction while paused, a paused leader, proxy latency,
// resets, black-holing, frozen connections). Prints, per fault, the time from the end of the fault to
// every budget being correct, with its deadline, peak RSS and restarts; the chaos e2e (e2e/chaos/e2e.ts)
// asserts them.
// Run: KUBEBUILDER_ASSETS=... node --import tsx bench/chaos/main.ts   (needs `npx tsc -b` for the runtime)
// To repeat some faults: --only 'kube-apiserver' --rounds 20 (a regular expression on the fault names).
import { chaosTable, runChaos } from "../../e2e/chaos/scenario.js";
import { benchArgs } from "../args.js";

const { values } = benchArgs("bench/chaos", {
  only: { type: "string" },
  rounds: { type: "string", default: "1" },
});
const rounds = Number(values.rounds);
if (!(Number.isInteger(rounds) && rounds > 0)) {
  console.error(`--rounds ${values.rounds}: give a positive whole number`);
  process.exit(2);
}
const report = await runChaos({
  log: (line) => console.log(`chaos: ${line}`),
  only: values.only === undefined ? undefined : new RegExp(values.only),
  rounds,
});
console.log(`\n${chaosTable(report)}`);
process.exit(report.results.every((r) => r.ok) && report.nonLeaderWrites.length === 0 ? 0 : 1);
