/**
 * A consistent-hash ring over the live members of a shard ring: each member stands at many points
 * (virtual nodes) on a 32-bit circle, and a key belongs to the first member at or after its hash.
 * When a member joins or leaves, only the keys between its points and their predecessors move
 * (about 1/n of them), and every replica that sees the same members computes the same owners.
 */
import { createHash } from "node:crypto";

/** Points per member: enough that 3 members split keys within a few percent of a third each. */
export const DEFAULT_VIRTUAL_NODES = 100;

/** A stable 32-bit hash: the first four bytes of SHA-256 (the same on every replica and Node version). */
export function hash32(key: string): number {
  return createHash("sha256").update(key).digest().readUInt32BE(0);
}

export class HashRing {
  /** Points sorted by position; ties broken by member name so every replica agrees. */
  private readonly points: { at: number; member: string }[] = [];
  readonly members: readonly string[];

  constructor(members: Iterable<string>, virtualNodes = DEFAULT_VIRTUAL_NODES) {
    if (!Number.isInteger(virtualNodes) || virtualNodes < 1) {
      throw new Error(`virtualNodes must be a positive integer, not ${virtualNodes}`);
    }
    this.members = [...new Set(members)].sort();
    for (const member of this.members) {
      for (let i = 0; i < virtualNodes; i++) this.points.push({ at: hash32(`${member}#${i}`), member });
    }
    this.points.sort((a, b) => a.at - b.at || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0));
  }

  /** The member a key belongs to; undefined when the ring is empty. */
  owner(key: string): string | undefined {
    const points = this.points;
    if (points.length === 0) return undefined;
    const h = hash32(key);
    // The first point at or after h (binary search), wrapping round to the first point.
    let lo = 0;
    let hi = points.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((points[mid] as { at: number }).at < h) lo = mid + 1;
      else hi = mid;
    }
    return (points[lo] ?? points[0])?.member;
  }
}
