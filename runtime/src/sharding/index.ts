export { FORWARDED_BY_HEADER, type ForwardToShardOwnerOptions, unavailableResult } from "./forward.js";
export { checkIdentity, checkRingName, drainLabel, RING_LABEL, shardLabel } from "./labels.js";
export { type Member, type MemberState, MemberTracker } from "./members.js";
export {
  fnv1a64,
  formatRanges,
  type HashRange,
  parseRanges,
  RANGE_VIRTUAL_NODES,
  ringRanges,
  shardSelector,
} from "./ranges.js";
export { DEFAULT_VIRTUAL_NODES, HashRing, hash32 } from "./ring.js";
export {
  RANGES_ANNOTATION,
  Shard,
  type ShardContext,
  type ShardingOptions,
  type ShardTarget,
  WEBHOOK_ANNOTATION,
} from "./shard.js";
