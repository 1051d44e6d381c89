/**
 * The labels of a shard ring, spelled as timebertt/kubernetes-controller-sharding spells them, so
 * its tools (kubectl columns, its sharder's dashboards) read a kbts ring as one of its own.
 */

/** On each shard Lease: the ring it is a member of. */
export const RING_LABEL = "alpha.sharding.timebertt.dev/controllerring";

/** On a member's Lease with the shardSelector mechanism: the hash ranges it serves now. */
export const RANGES_ANNOTATION = "sharding.kbts.dev/ranges";

/** On a member's Lease: where its webhook server is reached ("host:port"), for forwarded admission. */
export const WEBHOOK_ANNOTATION = "sharding.kbts.dev/webhook";

/** On each sharded object: the member that reconciles it. */
export function shardLabel(ring: string): string {
  return `shard.alpha.sharding.timebertt.dev/${ring}`;
}

/** On an object whose owner must hand it over: the owner stops reconciling it and removes both labels. */
export function drainLabel(ring: string): string {
  return `drain.alpha.sharding.timebertt.dev/${ring}`;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The ring name is part of a label key, so it must be a DNS label (as the external sharder requires). */
export function checkRingName(ring: string): void {
  if (!DNS_LABEL.test(ring) || ring.length > 63) {
    throw new Error(
      `sharding.ring "${ring}" is not a DNS label (lowercase letters, digits and "-", at most 63 characters): it becomes part of the label key ${shardLabel(ring)}`,
    );
  }
}

/** A member's identity is its Lease's name and a label value: a DNS label satisfies both. */
export function checkIdentity(identity: string): void {
  if (!DNS_LABEL.test(identity) || identity.length > 63) {
    throw new Error(
      `sharding.identity "${identity}" is not a DNS label (lowercase letters, digits and "-", at most 63 characters): it names the shard Lease and is the value of the shard label; set sharding.identity (the pod name is a good one)`,
    );
  }
}
