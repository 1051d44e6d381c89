/**
 * The members of a shard ring, from its Leases (one per replica, labelled with the ring). A member
 * is live while its Lease is held by itself (holderIdentity = the Lease's name) and has changed
 * within its duration, judged on this replica's clock from when the change was seen (never from
 * renewTime, so clock skew between replicas does not matter), as the leader elector judges expiry.
 */
import type { Lease } from "../api/kinds.js";

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
}

/** Remembers when each Lease last changed, across list rounds. */
export class MemberTracker {
  private readonly seen = new Map<string, { raw: string; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The members the listed Leases describe, sorted by name. */
  observe(leases: Lease[]): Member[] {
    const t = this.now();
    const names = new Set<string>();
    const members: Member[] = [];
    for (const lease of leases) {
      const name = lease.metadata?.name;
      if (!name) continue;
      names.add(name);
      const raw = JSON.stringify(lease.spec ?? {});
      let seen = this.seen.get(name);
      if (!seen || seen.raw !== raw) {
        seen = { raw, at: t };
        this.seen.set(name, seen);
      }
      const spec = lease.spec ?? {};
      const unchangedForMs = t - seen.at;
      const held = spec.holderIdentity === name;
      const fresh = unchangedForMs < (spec.leaseDurationSeconds ?? 0) * 1000;
      members.push({ name, lease, unchangedForMs, state: !held ? "dead" : fresh ? "live" : "expired" });
    }
    for (const name of this.seen.keys()) if (!names.has(name)) this.seen.delete(name);
    return members.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
