import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { sleepUnlessAborted } from "../internal/sleep.js";
import { nopLogger } from "../log/logger.js";
import type { Logger } from "../log/types.js";
import { leaderElectionMasterStatus, leaderElectionStepDownsTotal } from "../metrics/leaderelection.js";
import { formatMicroTime, type LeaderElectionRecord, type ResourceLock } from "./lock.js";

export interface LeaderElectorOptions {
  lock: ResourceLock;
  /** The lease name, used as the `name` label of leader_election_master_status. */
  name: string;
  /** Default: hostname + "_" + a UUID, as controller-runtime. */
  identity?: string;
  /** client-go defaults: 15 s / 10 s / 2 s. */
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** On a clean stop, hand the lease back (empty holder, 1 s duration) so a standby takes over at once. */
  releaseOnCancel?: boolean;
  logger?: Logger;
  /** Called once this replica holds the lease. */
  onStartedLeading?: () => void;
  /** Called when a held lease could not be renewed within renewDeadline (not on a clean stop). */
  onStoppedLeading?: () => void;
  /** Called whenever the observed holder changes. */
  onNewLeader?: (identity: string) => void;
  /** For tests. */
  now?: () => number;
}

export interface LeaderElector {
  readonly identity: string;
  /** Acquires, then renews until lost or the signal aborts. Resolves "lost" or "stopped". */
  run(signal: AbortSignal): Promise<"lost" | "stopped">;
  isLeader(): boolean;
  /** The holder last observed ("" if none). */
  getLeader(): string;
  /**
   * The write fence. Resolves at once while this replica leads on a lease renewed within
   * renewDeadline (measured on our clock from when the renewal was sent); when the last renewal is
   * older (the process was paused, the API server slow), renews first and resolves only if that
   * renewal succeeds. Rejects with LeadershipLostError once leadership is lost or was handed over.
   * Resolves at once before this replica ever led (runnables that do not need leadership write then).
   */
  ensureLeading(): Promise<void>;
  /**
   * The fence's last word, synchronous, for the moment a write is about to be sent: throws
   * LeadershipLostError once leadership is gone, and StaleLeaseError when the last renewal is older
   * than renewDeadline (the writer waited, or the process was paused, since it passed ensureLeading).
   */
  checkLeading(): void;
}

/** A write reached the wire on a lease not renewed within renewDeadline: pass ensureLeading again. */
export class StaleLeaseError extends Error {
  override name = "StaleLeaseError";
}

/** A write was refused because this replica no longer holds the lease. */
export class LeadershipLostError extends Error {
  override name = "LeadershipLostError";
}

export function defaultIdentity(): string {
  return `${hostname()}_${randomUUID()}`;
}

/** client-go's tools/leaderelection on a ResourceLock. */
export function createLeaderElector(options: LeaderElectorOptions): LeaderElector {
  const leaseDurationMs = options.leaseDurationMs ?? 15_000;
  const renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
  const retryPeriodMs = options.retryPeriodMs ?? 2_000;
  if (leaseDurationMs <= renewDeadlineMs) {
    throw new Error(
      `leaseDuration (${leaseDurationMs}ms) must be greater than renewDeadline (${renewDeadlineMs}ms)`,
    );
  }
  if (renewDeadlineMs <= 1.2 * retryPeriodMs) {
    throw new Error(
      `renewDeadline (${renewDeadlineMs}ms) must be greater than 1.2 × retryPeriod (${retryPeriodMs}ms)`,
    );
  }
  if (leaseDurationMs < 1000 || retryPeriodMs < 1) {
    throw new Error("leaseDuration must be at least 1s and retryPeriod positive");
  }
  const identity = options.identity ?? defaultIdentity();
  const lock = options.lock;
  const now = options.now ?? Date.now;
  const log = (options.logger ?? nopLogger()).child({ lease: lock.describe(), identity });
  const leaseDurationSeconds = Math.round(leaseDurationMs / 1000);

  let observedRecord: LeaderElectionRecord | undefined;
  let observedRaw = "";
  let observedTime = 0;
  let reportedLeader = "";
  /** "idle" before first leading; "leading"; "gone" after losing or stepping down (for good). */
  let state: "idle" | "leading" | "gone" = "idle";
  /** When the last successful acquire or renew was sent: the lease is ours until this + renewDeadline. */
  let renewSentAt = 0;
  /** Writers waiting on a renewal (ensureLeading with a stale lease). */
  let fenceWaiters: { resolve: () => void; reject: (err: Error) => void }[] = [];
  /** Wakes the renew loop early when a writer finds the lease stale. */
  let wake = new AbortController();

  const settleFence = (err?: Error) => {
    const waiters = fenceWaiters;
    fenceWaiters = [];
    for (const w of waiters) err ? w.reject(err) : w.resolve();
  };
  /** Another replica holds a lease that has not expired on our clock. */
  const anotherValidHolder = () =>
    observedRecord !== undefined &&
    observedRecord.holderIdentity !== "" &&
    observedRecord.holderIdentity !== identity &&
    observedTime + observedRecord.leaseDurationSeconds * 1000 > now();

  const isLeader = () => observedRecord?.holderIdentity === identity;

  function observe(record: LeaderElectionRecord, t: number): void {
    const raw = JSON.stringify(record);
    if (raw !== observedRaw) {
      observedRecord = record;
      observedRaw = raw;
      observedTime = t;
    }
    if (record.holderIdentity !== reportedLeader) {
      reportedLeader = record.holderIdentity;
      if (reportedLeader) {
        log.info({ leader: reportedLeader }, "new leader elected");
        options.onNewLeader?.(reportedLeader);
      }
    }
  }

  /** One attempt (client-go's tryAcquireOrRenew). */
  async function tryAcquireOrRenew(): Promise<boolean> {
    const t = now();
    const t0 = formatMicroTime(t);
    // Fast path: we hold a lease that has not expired locally; renew with what we know.
    if (isLeader() && observedRecord && observedTime + observedRecord.leaseDurationSeconds * 1000 > t) {
      const renewed = { ...observedRecord, renewTime: t0 };
      try {
        await lock.update(renewed);
        observe(renewed, t);
        renewSentAt = t;
        return true;
      } catch (err) {
        log.debug({ err }, "lease fast-path renew failed; re-reading");
      }
    }
    let current: LeaderElectionRecord | undefined;
    try {
      current = await lock.get();
    } catch (err) {
      log.error({ err }, "error retrieving resource lock");
      return false;
    }
    if (!current) {
      const record: LeaderElectionRecord = {
        holderIdentity: identity,
        leaseDurationSeconds,
        acquireTime: t0,
        renewTime: t0,
        leaseTransitions: 0,
      };
      try {
        await lock.create(record);
      } catch (err) {
        log.error({ err }, "error initially creating leader election record");
        return false;
      }
      observe(record, t);
      renewSentAt = t;
      return true;
    }
    observe(current, t);
    // Expiry is judged on our clock from when we last saw the record change, never on renewTime.
    if (
      current.holderIdentity !== "" &&
      current.holderIdentity !== identity &&
      observedTime + current.leaseDurationSeconds * 1000 > t
    ) {
      return false;
    }
    const weHold = current.holderIdentity === identity;
    const record: LeaderElectionRecord = {
      holderIdentity: identity,
      leaseDurationSeconds,
      acquireTime: weHold ? current.acquireTime : t0,
      renewTime: t0,
      leaseTransitions: weHold ? current.leaseTransitions : current.leaseTransitions + 1,
    };
    try {
      await lock.update(record);
    } catch (err) {
      log.debug({ err }, "failed to update lease");
      return false;
    }
    observe(record, t);
    renewSentAt = t;
    return true;
  }

  async function release(): Promise<void> {
    if (!isLeader() || !observedRecord) return;
    const t = formatMicroTime(now());
    const record: LeaderElectionRecord = {
      holderIdentity: "",
      leaseDurationSeconds: 1,
      acquireTime: t,
      renewTime: t,
      leaseTransitions: observedRecord.leaseTransitions,
    };
    try {
      await lock.update(record);
      observe(record, now());
      log.info("released the lease");
    } catch (err) {
      log.error({ err }, "failed to release the lease");
    }
  }

  /** Until the next acquire attempt: retryPeriod with a little jitter, but no later than the moment the observed lease expires. */
  function acquireWait(): number {
    const jittered = retryPeriodMs * (0.8 + 0.2 * Math.random());
    if (observedRecord?.holderIdentity) {
      const untilExpiry = observedTime + observedRecord.leaseDurationSeconds * 1000 - now() + 1;
      if (untilExpiry > 0) return Math.min(jittered, untilExpiry);
    }
    return jittered;
  }

  /** Leadership ends: writers waiting on the fence are refused, and so is every later write. */
  function lose(reason: string): void {
    state = "gone";
    leaderElectionMasterStatus.set({ name: options.name }, 0);
    settleFence(new LeadershipLostError(`${reason}; refusing to write`));
  }

  return {
    identity,
    isLeader,
    getLeader: () => observedRecord?.holderIdentity ?? "",
    ensureLeading() {
      if (state === "idle") return Promise.resolve();
      if (state === "gone") {
        return Promise.reject(
          new LeadershipLostError(`lease ${lock.describe()} is no longer held; refusing to write`),
        );
      }
      if (now() < renewSentAt + renewDeadlineMs) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        fenceWaiters.push({ resolve, reject });
        wake.abort();
      });
    },
    checkLeading() {
      if (state === "gone") {
        throw new LeadershipLostError(`lease ${lock.describe()} is no longer held; refusing to write`);
      }
      if (state === "leading" && now() >= renewSentAt + renewDeadlineMs) {
        wake.abort();
        throw new StaleLeaseError(`lease ${lock.describe()} was not renewed within renewDeadline`);
      }
    },
    async run(signal) {
      // As client-go: the series appears when this replica first leads (1) and drops to 0 when it stops.
      log.info("attempting to acquire leader lease");
      while (!signal.aborted) {
        if (await tryAcquireOrRenew()) break;
        await sleepUnlessAborted(acquireWait(), signal);
      }
      if (signal.aborted) return "stopped";
      log.info("successfully acquired lease");
      state = "leading";
      leaderElectionMasterStatus.set({ name: options.name }, 1);
      options.onStartedLeading?.();

      // Renew every retryPeriod; a round that cannot renew within renewDeadline loses the lease, and
      // one that sees another valid holder steps down at once (client-go keeps retrying until the
      // deadline, and its controllers keep writing meanwhile: issue 19, item 5).
      for (;;) {
        await sleepUnlessAborted(retryPeriodMs, AbortSignal.any([signal, wake.signal]));
        if (wake.signal.aborted) wake = new AbortController();
        if (signal.aborted) break;
        const deadline = now() + renewDeadlineMs;
        let renewed = false;
        let steppedDown = false;
        while (!signal.aborted) {
          const attempt = tryAcquireOrRenew();
          const outcome = await Promise.race([
            attempt,
            sleepUnlessAborted(Math.max(0, deadline - now()), signal).then(() => false),
          ]);
          if (outcome) {
            renewed = true;
            settleFence();
            break;
          }
          if (anotherValidHolder()) {
            steppedDown = true;
            break;
          }
          if (now() >= deadline || signal.aborted) break;
          await sleepUnlessAborted(Math.min(retryPeriodMs, Math.max(0, deadline - now())), signal);
          if (now() >= deadline) break;
        }
        if (steppedDown) {
          lose(`lease ${lock.describe()} is held by ${observedRecord?.holderIdentity}`);
          leaderElectionStepDownsTotal.inc({ name: options.name });
          log.error(
            { leader: observedRecord?.holderIdentity },
            `another replica holds lease ${lock.describe()}: stepping down at once`,
          );
          options.onStoppedLeading?.();
          return "lost";
        }
        if (signal.aborted) break;
        if (!renewed) {
          lose(`lease ${lock.describe()} could not be renewed`);
          log.error(
            `failed to renew lease ${lock.describe()}: timed out after renewDeadline ${renewDeadlineMs}ms`,
          );
          options.onStoppedLeading?.();
          return "lost";
        }
      }
      // Stopping: nothing may write on the strength of this lease any more.
      lose(`lease ${lock.describe()} is being given up`);
      if (options.releaseOnCancel) await release();
      leaderElectionMasterStatus.set({ name: options.name }, 0);
      return "stopped";
    },
  };
}
