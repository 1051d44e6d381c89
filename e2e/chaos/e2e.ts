/**
 * The chaos e2e of issue 19, for one group of faults: the GPUBudget operator (two leader-elected replicas)
 * under pod churn, through apiserver kills and pauses, etcd compaction while paused and a paused leader
 * (the control plane group), or proxy latency, resets, black-holing and frozen connections (the network
 * group). Every budget must be correct within each fault's deadline, no replica may die (a stepped-down
 * leader exits 1 by design and is restarted), RSS stays bounded, and no replica writes a status outside
 * its own leading intervals (leadership.ts). The figures print as a table (bench/chaos prints the same).
 * Each group is its own file, so the two run side by side (each takes about a minute of mostly waiting).
 */
import { describe, expect, it } from "vitest";
import { chaosTable, type FaultGroup, runChaos } from "./scenario.js";

export function describeChaos(group: FaultGroup): void {
  describe(`GPUBudget operator under faults of the ${group}`, () => {
    it("every fault: budgets correct within the deadline, replicas alive, RSS bounded, no non-leader writes", async () => {
      const report = await runChaos({ group, log: (line) => console.log(`chaos (${group}): ${line}`) });
      console.log(`\n${chaosTable(report)}\n`);
      expect(report.results.length).toBeGreaterThan(0);
      expect(report.results.filter((r) => !r.ok).map((r) => `${r.fault}: ${r.problem}`)).toEqual([]);
      expect(report.nonLeaderWrites).toEqual([]);
    }, 420_000);
  });
}
