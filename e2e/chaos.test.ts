/**
 * The chaos e2e of issue 19: the GPUBudget operator (two leader-elected replicas) under pod churn,
 * through apiserver kills and pauses, etcd compaction while paused, a paused leader, and proxy
 * latency, resets, black-holing and frozen connections. Every budget must be correct within each
 * fault's deadline, no replica may die (a stepped-down leader exits 1 by design and is restarted),
 * RSS stays bounded, and no replica writes a status outside its own leading intervals (chaos/leadership.ts).
 * The figures print as a table (bench/chaos prints the same).
 */
import { describe, expect, it } from "vitest";
import { chaosTable, runChaos } from "./chaos/scenario.js";

describe("GPUBudget operator under faults", () => {
  it("every fault: budgets correct within the deadline, replicas alive, RSS bounded, no non-leader writes", async () => {
    const report = await runChaos({ log: (line) => console.log(`chaos: ${line}`) });
    console.log(`\n${chaosTable(report)}\n`);
    expect(report.results.filter((r) => !r.ok).map((r) => `${r.fault}: ${r.problem}`)).toEqual([]);
    expect(report.nonLeaderWrites).toEqual([]);
  }, 420_000);
});
