import { Counter, Gauge } from "./prom.js";
import { metricsRegistry } from "./registry.js";

/** 1 while this replica holds the lease named `name` (the LeaderElectionID), 0 after losing it. */
export const leaderElectionMasterStatus = new Gauge({
  name: "leader_election_master_status",
  help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
  labelNames: ["name"] as const,
  registers: [metricsRegistry],
});

/**
 * Times this replica stepped down at once on seeing another valid holder of the lease `name`, rather
 * than renewing until its deadline (kbts's own: client-go has no such step-down).
 */
export const leaderElectionStepDownsTotal = new Counter({
  name: "leader_election_step_downs_total",
  help: "Number of times this replica stopped leading at once because another replica held the lease.",
  labelNames: ["name"] as const,
  registers: [metricsRegistry],
});
