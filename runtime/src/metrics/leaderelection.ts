import { Gauge } from "prom-client";
import { metricsRegistry } from "./registry.js";

/** 1 while this replica holds the lease named `name` (the LeaderElectionID), 0 after losing it. */
export const leaderElectionMasterStatus = new Gauge({
  name: "leader_election_master_status",
  help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
  labelNames: ["name"] as const,
  registers: [metricsRegistry],
});
