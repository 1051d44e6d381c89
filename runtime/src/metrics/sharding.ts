import { Counter, Gauge } from "./prom.js";
import { metricsRegistry } from "./registry.js";

/** The live members of a shard ring, as the member `shard` last saw them. */
export const shardMembers = new Gauge({
  name: "kbts_shard_members",
  help: "Number of live members of the shard ring, as seen by this member.",
  labelNames: ["ring", "shard"] as const,
  registers: [metricsRegistry],
});

/** The sharded objects the member `shard` holds (its cache watches only its own). */
export const shardObjects = new Gauge({
  name: "kbts_shard_objects",
  help: "Number of sharded objects assigned to this member and held in its cache.",
  labelNames: ["ring", "shard"] as const,
  registers: [metricsRegistry],
});

/**
 * Handovers this member made: as the ring's sharder (label mechanism), objects moved off another
 * member by drain or after its Lease expired; with shardSelector, hash ranges it took up.
 */
export const shardHandoversTotal = new Counter({
  name: "kbts_shard_handovers_total",
  help: "Number of handovers in the shard ring: objects moved by drain or from a dead member (label mechanism), or hash ranges taken up (shardSelector).",
  labelNames: ["ring", "reason"] as const,
  registers: [metricsRegistry],
});
