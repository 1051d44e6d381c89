export { checkIdentity, checkRingName, drainLabel, RING_LABEL, shardLabel } from "./labels.js";
export { type Member, type MemberState, MemberTracker } from "./members.js";
export { DEFAULT_VIRTUAL_NODES, HashRing, hash32 } from "./ring.js";
export { Shard, type ShardContext, type ShardingOptions } from "./shard.js";
