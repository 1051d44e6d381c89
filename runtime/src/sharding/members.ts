/**
 * The members of a shard ring, from its Leases (one per replica, labelled with the ring). A member
 * is live while its Lease is held by itself (holderIdentity = the Lease's name) and has changed
 * within its duration, judged on this replica's clock from when the change was seen (never from
 * renewTime, so clock skew between replicas does not matter), as the leader elector judges expiry.
 * A watch of the Leases times each change as it arrives (saw); the periodic list (observe) says who
 * the members are, and times what the watch missed.
 */
import type { Lease } from "../api/kinds.js";
import { compareResourceVersions } from "../client/own-writes.js";

export type MemberState =
  /** Held by the member and renewed within its duration. */
  | "live"
  /** Held by the member but not renewed within its duration: it may be paused or dead. */
  | "expired"
  /** Released (clean stop) or taken over: the member writes nothing any more. */
  | "dead";

export interface Member {
  name: string;
  state: MemberState;
  lease: Lease;
  /** How long (ms, our clock) since the Lease last changed. */
  unchangedForMs: number;
  /** When (our clock) the Lease is judged expired unless it changes first. */
  expiresAt: number;
}

interface Seen {
  /** The newest version seen, and its spec as JSON. */
  lease: Lease;
  raw: string;
  /** When the spec last changed. */
  at: number;
}

/** Remembers when each Lease last changed, across list rounds and watch events. */
export class MemberTracker {
  private readonly seen = new Map<string, Seen>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A Lease as a watch delivers it: a change is timed when it arrives, not at the next list. */
  saw(lease: Lease): void {
    const name = lease.metadata?.name;
    if (name) this.record(name, lease, this.now());
  }

  /** The members the listed Leases describe, sorted by name. */
  observe(leases: Lease[]): Member[] {
    const t = this.now();
    const names = new Set<string>();
    const members: Member[] = [];
    for (const lease of leases) {
      const name = lease.metadata?.name;
      if (!name) continue;
      names.add(name);
      // The newest version seen: the watch may already have delivered a newer one than the list.
      const seen = this.record(name, lease, t);
      const spec = seen.lease.spec ?? {};
      const unchangedForMs = t - seen.at;
      const expiresAt = seen.at + (spec.leaseDurationSeconds ?? 0) * 1000;
      const held = spec.holderIdentity === name;
      const state = !held ? "dead" : t < expiresAt ? "live" : "expired";
      members.push({ name, lease: seen.lease, unchangedForMs, expiresAt, state });
    }
    for (const name of this.seen.keys()) if (!names.has(name)) this.seen.delete(name);
    return members.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * Notes a version of a Lease seen at `t`. A version older than the one seen last (the watch and
   * the list can each be behind the other) is not a change: timing it would make a dead member look
   * renewed, and judging by it would undo a takeover already seen.
   */
  private record(name: string, lease: Lease, t: number): Seen {
    const seen = this.seen.get(name);
    const version = lease.metadata?.resourceVersion;
    const seenVersion = seen?.lease.metadata?.resourceVersion;
    if (seen && version && seenVersion) {
      const order = compareResourceVersions(version, seenVersion);
      if (order !== undefined && order < 0) return seen;
    }
    const raw = JSON.stringify(lease.spec ?? {});
    if (seen && seen.raw === raw) {
      seen.lease = lease;
      return seen;
    }
    const next = { lease, raw, at: t };
    this.seen.set(name, next);
    return next;
  }
}

/** The first moment a live member other than `self` would be judged expired, if any is live. */
export function firstExpiry(members: Member[], self: string): number | undefined {
  let first: number | undefined;
  for (const m of members) {
    if (m.state === "live" && m.name !== self && (first === undefined || m.expiresAt < first)) {
      first = m.expiresAt;
    }
  }
  return first;
}
