// bench/chaos: the GPUBudget operator (two leader-elected replicas) under pod churn and one fault after
// another (apiserver kill and pause, etcd compaction while paused, a paused leader, proxy latency,
// resets, black-holing, frozen connections). Prints, per fault, the time from the end of the fault to
// every budget being correct, with its deadline, peak RSS and restarts; e2e/chaos.test.ts asserts them.
// Run: KUBEBUILDER_ASSETS=... node --import tsx bench/chaos/main.ts   (needs `npx tsc -b` for the runtime)
import { chaosTable, runChaos } from "../../e2e/chaos/scenario.js";

const report = await runChaos({ log: (line) => console.log(`chaos: ${line}`) });
console.log(`\n${chaosTable(report)}`);
process.exit(report.results.every((r) => r.ok) && report.nonLeaderWrites.length === 0 ? 0 : 1);
