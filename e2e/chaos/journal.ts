/**
 * The soak's account of watch events (issue 30, item 5). Pepr's watchers lost events silently: one
 * stopped after 90 minutes, others dropped events across 429s. To count such losses rather than infer
 * them from a wrong budget, the harness records every pod version it wrote (from the write's response)
 * and every event an informer delivered, and compares them with the API server's own list.
 *
 * A continuous watch delivers every version of an object. A relist may fold several versions into one
 * (an add or update marked `relisted`, a delete whose final state is unknown): those skipped versions
 * are counted as coalesced, not missed. So
 *  - missed: a written version never delivered, where the next event the informer delivered for that
 *    object is not a relist's; or an object whose last delivered state is not the API server's (its
 *    newest version, or its deletion) once the informer has had time to catch up;
 *  - duplicated: the same version delivered twice;
 *  - out of order: a version delivered after a newer one of the same object.
 */
import { compareResourceVersions } from "../../runtime/src/client/own-writes.js";

/** What an informer delivered, as the journal needs it. */
export interface DeliveredEvent {
  type: "add" | "update" | "delete";
  uid: string;
  resourceVersion: string;
  /** Made up by a relist (an add or update marked relisted, a delete with deleteStateUnknown). */
  relisted: boolean;
}

export interface JournalAccount {
  /** Versions written and never delivered, with a watch event (not a relist's) after them. */
  missed: string[];
  /** Objects whose last delivered state is not the API server's. */
  stale: string[];
  duplicated: number;
  outOfOrder: number;
  /** Versions folded into a relist's event: allowed, and shown. */
  coalesced: number;
  /** Events delivered in all. */
  delivered: number;
}

/** The runtime's one resourceVersion comparator; a version it cannot order is a harness error here. */
function compare(a: string, b: string): number {
  const order = compareResourceVersions(a, b);
  if (order === undefined) throw new Error(`resourceVersions ${a} and ${b} are not etcd revisions`);
  return order;
}

export class EventJournal {
  /** uid -> the versions the harness wrote, as the API server answered them. */
  private readonly written = new Map<string, string[]>();
  /** uid -> the informer's events, in delivery order. */
  private readonly events = new Map<string, DeliveredEvent[]>();
  private deliveredCount = 0;

  /** A create or update of `uid` that the API server answered with `resourceVersion`. */
  wrote(uid: string | undefined, resourceVersion: string | undefined): void {
    if (!uid || !resourceVersion) return;
    const list = this.written.get(uid) ?? [];
    list.push(resourceVersion);
    this.written.set(uid, list);
  }

  saw(event: DeliveredEvent): void {
    this.deliveredCount++;
    const list = this.events.get(event.uid) ?? [];
    list.push(event);
    this.events.set(event.uid, list);
  }

  /** Whether every object's last delivered state is `truth`'s (uid -> resourceVersion of what exists). */
  caughtUp(truth: ReadonlyMap<string, string>): boolean {
    return this.staleAgainst(truth).length === 0;
  }

  /** The counts against `truth`, the API server's list of the watched pods (uid -> resourceVersion). */
  account(truth: ReadonlyMap<string, string>): JournalAccount {
    const missed: string[] = [];
    let duplicated = 0;
    let outOfOrder = 0;
    let coalesced = 0;
    for (const events of this.events.values()) {
      const versions = new Set<string>();
      let newest: string | undefined;
      for (const e of events) {
        if (e.type === "delete") continue;
        if (versions.has(e.resourceVersion)) duplicated++;
        versions.add(e.resourceVersion);
        if (newest !== undefined && compare(e.resourceVersion, newest) < 0) outOfOrder++;
        else newest = e.resourceVersion;
      }
    }
    for (const [uid, written] of this.written) {
      const events = this.events.get(uid) ?? [];
      for (const rv of written) {
        if (events.some((e) => e.type !== "delete" && e.resourceVersion === rv)) continue;
        // The first event after this version: a newer version, or the object's deletion.
        const next = events.find((e) => e.type === "delete" || compare(e.resourceVersion, rv) > 0);
        if (next === undefined) continue; // nothing after it: the final-state check below decides
        if (next.relisted) coalesced++;
        else missed.push(`${uid}@${rv} (next: ${next.type} ${next.resourceVersion})`);
      }
    }
    return {
      missed,
      stale: this.staleAgainst(truth),
      duplicated,
      outOfOrder,
      coalesced,
      delivered: this.deliveredCount,
    };
  }

  private staleAgainst(truth: ReadonlyMap<string, string>): string[] {
    const stale: string[] = [];
    for (const [uid, rv] of truth) {
      const last = this.events.get(uid)?.at(-1);
      if (!last || last.type === "delete" || last.resourceVersion !== rv)
        stale.push(`${uid}: has ${last ? `${last.type} ${last.resourceVersion}` : "nothing"}, is ${rv}`);
    }
    for (const [uid, events] of this.events) {
      const last = events.at(-1);
      if (!truth.has(uid) && last && last.type !== "delete")
        stale.push(`${uid}: has ${last.type} ${last.resourceVersion}, is deleted`);
    }
    return stale;
  }
}
