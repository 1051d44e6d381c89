/**
 * Who may write a status, judged from the replicas' logs: a replica leads from each of its lease
 * acquisitions until another replica next acquires the lease. A "status updated" line logged outside
 * the writer's own leading intervals is a write by a non-leader, whether the writer never led, had not
 * led yet, or had been deposed. Used by the chaos harness (scenario.ts); a pure function, so its unit
 * test (leadership.test.ts) can feed it synthetic logs.
 */

/** What one replica logged, as times in ms since the epoch. */
export interface ReplicaLog {
  name: string;
  /** Its "successfully acquired lease" lines. */
  acquired: number[];
  /** Its "status updated" lines. */
  writes: number[];
  /** Its SIGSTOP pauses: when it was stopped, and when resumed (undefined: never resumed). */
  pauses: Array<{ stoppedAt: number; resumedAt?: number }>;
}

/** A write sent before a SIGSTOP is logged after the SIGCONT, within this long of it. */
const RESUME_GRACE_MS = 1_000;

/** [from, to) intervals in which `r` held the lease: each acquisition until another replica's next. */
export function leadingIntervals(r: ReplicaLog, all: readonly ReplicaLog[]): Array<[number, number]> {
  const others = all.filter((o) => o !== r).flatMap((o) => o.acquired);
  return r.acquired.map((from) => [from, Math.min(Infinity, ...others.filter((t) => t > from))]);
}

/**
 * Every "status updated" line of a replica at a time it did not lead, described for a message.
 *
 * One excuse: a write a leader sent just before it was SIGSTOPped is answered, and logged, after its
 * SIGCONT, perhaps after another replica took over meanwhile. So one write per resume, logged within
 * RESUME_GRACE_MS of it, passes when the replica was leading at the moment it was stopped (one worker's
 * request in flight). A replica that was not leading when stopped had nothing in flight to excuse.
 */
export function nonLeaderWrites(replicas: readonly ReplicaLog[]): string[] {
  const out: string[] = [];
  for (const r of replicas) {
    const intervals = leadingIntervals(r, replicas);
    const leading = (t: number) => intervals.some(([from, to]) => t >= from && t < to);
    const excused = new Set<number>();
    for (const t of r.writes) {
      if (leading(t)) continue;
      const pause = r.pauses.find(
        (p) =>
          p.resumedAt !== undefined &&
          t >= p.resumedAt &&
          t - p.resumedAt < RESUME_GRACE_MS &&
          leading(p.stoppedAt) &&
          !excused.has(p.resumedAt),
      );
      if (pause?.resumedAt !== undefined) {
        excused.add(pause.resumedAt);
        continue;
      }
      const first = r.acquired[0];
      const why =
        first === undefined
          ? "it never held the lease"
          : t < first
            ? "before it first acquired the lease"
            : "after another replica acquired the lease";
      out.push(`${r.name} at ${new Date(t).toISOString()}: ${why}`);
    }
  }
  return out;
}
