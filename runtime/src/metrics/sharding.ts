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

/**
 * Admission requests of a webhook that forwards to the shard owner (forwardToShardOwner), as this
 * replica handled those it could not answer itself: forwarded to the owner, answered "unavailable"
 * (no ready owner in time; onUnavailable answered), or the forward failed ("error"; onUnavailable answered).
 */
export const webhookForwardedTotal = new Counter({
  name: "kbts_webhook_forwarded_total",
  help: "Number of admission requests this replica did not answer from its own shard: forwarded to the namespace's owner, unavailable (no ready owner in time) or error (the forward failed).",
  labelNames: ["webhook", "result"] as const,
  registers: [metricsRegistry],
});
