/**
 * bench/soak: the GPUBudget operator (two leader-elected replicas) under steady pod churn (creates,
 * completions, relabels, deletes) for hours, through the chaos harness's faults over and over: API server
 * kills and pauses, etcd compaction, a paused leader, 429 storms, dropped, black-holed and frozen
 * connections (e2e/chaos/scenario.ts). An informer of the runtime behind the same faults reports every
 * pod event to a journal, which compares them with the versions the churn wrote and the API server's
 * list (e2e/chaos/journal.ts). After each fault it checks every budget and every event.
 *
 * Goal (issue 30): 0 missed events, 0 wrong budgets, over at least an hour (--hours 1); the default,
 * a quarter of an hour (about six rounds of the faults), keeps `make bench` short.
 *
 *   KUBEBUILDER_ASSETS=... node --import tsx bench/soak/main.ts [--hours 0.25]
 */
import type { JournalAccount } from "../../e2e/chaos/journal.js";
import { chaosTable, runChaos } from "../../e2e/chaos/scenario.js";
import { benchArgs } from "../args.js";

const { values } = benchArgs("bench/soak", { hours: { type: "string", default: "0.25" } });
const hours = Number(values.hours);
if (!(hours > 0)) {
  console.error(`--hours ${values.hours}: give a positive number of hours (e.g. --hours 1 or --hours 0.25)`);
  process.exit(2);
}

const started = Date.now();
const report = await runChaos({
  soakUntil: started + hours * 3_600_000,
  log: (line) => console.log(`soak +${((Date.now() - started) / 60_000).toFixed(1)} min: ${line}`),
});
console.log(`\n${chaosTable(report)}`);
const events = report.events;
console.log(`\n${eventsLine(events)}`);
const wrong = report.results.filter((r) => !r.ok).length;
const missed = (events?.missed.length ?? 0) + (events?.stale.length ?? 0);
console.log(
  `soak of ${((Date.now() - started) / 3_600_000).toFixed(2)} h: ${report.results.length} faults, ${missed} missed events, ${wrong} faults with wrong budgets or another problem, ${report.nonLeaderWrites.length} status writes by a non-leader`,
);
process.exit(missed === 0 && wrong === 0 && report.nonLeaderWrites.length === 0 ? 0 : 1);

function eventsLine(e: JournalAccount | undefined): string {
  if (!e) return "events: no journal";
  return [
    `events delivered to the journal's informer: ${e.delivered}`,
    `missed: ${e.missed.length + e.stale.length}`,
    `duplicated: ${e.duplicated}`,
    `out of order: ${e.outOfOrder}`,
    `folded into a relist's event (allowed): ${e.coalesced}`,
    ...[...e.missed, ...e.stale].slice(0, 10).map((m) => `  missed ${m}`),
  ].join("\n");
}
