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
  return new LeaseElector(options);
}

class LeaseElector implements LeaderElector {
  readonly identity: string;
  private readonly options: LeaderElectorOptions;
  private readonly lock: ResourceLock;
  private readonly now: () => number;
  private readonly log: Logger;
  private readonly leaseDurationSeconds: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;

  private observedRecord: LeaderElectionRecord | undefined;
  private observedRaw = "";
  private observedTime = 0;
  private reportedLeader = "";
  /** "idle" before first leading; "leading"; "gone" after losing or stepping down (for good). */
  private state: "idle" | "leading" | "gone" = "idle";
  /** When the last successful acquire or renew was sent: the lease is ours until this + renewDeadline. */
  private renewSentAt = 0;
  /** Writers waiting on a renewal (ensureLeading with a stale lease). */
  private fenceWaiters: { resolve: () => void; reject: (err: Error) => void }[] = [];
  /** Wakes the renew loop early when a writer finds the lease stale. */
  private wake = new AbortController();

  constructor(options: LeaderElectorOptions) {
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
    this.options = options;
    this.renewDeadlineMs = renewDeadlineMs;
    this.retryPeriodMs = retryPeriodMs;
    this.identity = options.identity ?? defaultIdentity();
    this.lock = options.lock;
    this.now = options.now ?? Date.now;
    this.log = (options.logger ?? nopLogger()).child({
      lease: this.lock.describe(),
      identity: this.identity,
    });
    this.leaseDurationSeconds = Math.round(leaseDurationMs / 1000);
  }

  isLeader(): boolean {
    return this.observedRecord?.holderIdentity === this.identity;
  }

  getLeader(): string {
    return this.observedRecord?.holderIdentity ?? "";
  }

  ensureLeading(): Promise<void> {
    if (this.state === "idle") return Promise.resolve();
    if (this.state === "gone") {
      return Promise.reject(
        new LeadershipLostError(`lease ${this.lock.describe()} is no longer held; refusing to write`),
      );
    }
    if (this.now() < this.renewSentAt + this.renewDeadlineMs) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.fenceWaiters.push({ resolve, reject });
      this.wake.abort();
    });
  }

  checkLeading(): void {
    if (this.state === "gone") {
      throw new LeadershipLostError(`lease ${this.lock.describe()} is no longer held; refusing to write`);
    }
    if (this.state === "leading" && this.now() >= this.renewSentAt + this.renewDeadlineMs) {
      this.wake.abort();
      throw new StaleLeaseError(`lease ${this.lock.describe()} was not renewed within renewDeadline`);
    }
  }

  async run(signal: AbortSignal): Promise<"lost" | "stopped"> {
    // As client-go: the series appears when this replica first leads (1) and drops to 0 when it stops.
    this.log.info("attempting to acquire leader lease");
    while (!signal.aborted) {
      if (await this.tryAcquireOrRenew()) break;
      await sleepUnlessAborted(this.acquireWait(), signal);
    }
    if (signal.aborted) return "stopped";
    this.log.info("successfully acquired lease");
    this.state = "leading";
    leaderElectionMasterStatus.set({ name: this.options.name }, 1);
    this.options.onStartedLeading?.();

    // Renew every retryPeriod; a round that cannot renew within renewDeadline loses the lease, and
    // one that sees another valid holder steps down at once (client-go keeps retrying until the
    // deadline, and its controllers keep writing meanwhile: issue 19, item 5).
    for (;;) {
      await sleepUnlessAborted(this.retryPeriodMs, AbortSignal.any([signal, this.wake.signal]));
      if (this.wake.signal.aborted) this.wake = new AbortController();
      if (signal.aborted) break;
      const round = await this.renewRound(signal);
      if (round === "stepped-down") {
        this.lose(`lease ${this.lock.describe()} is held by ${this.observedRecord?.holderIdentity}`);
        leaderElectionStepDownsTotal.inc({ name: this.options.name });
        this.log.error(
          { leader: this.observedRecord?.holderIdentity },
          `another replica holds lease ${this.lock.describe()}: stepping down at once`,
        );
        this.options.onStoppedLeading?.();
        return "lost";
      }
      if (signal.aborted) break;
      if (round === "failed") {
        this.lose(`lease ${this.lock.describe()} could not be renewed`);
        this.log.error(
          `failed to renew lease ${this.lock.describe()}: timed out after renewDeadline ${this.renewDeadlineMs}ms`,
        );
        this.options.onStoppedLeading?.();
        return "lost";
      }
    }
    // Stopping: nothing may write on the strength of this lease any more.
    this.lose(`lease ${this.lock.describe()} is being given up`);
    if (this.options.releaseOnCancel) await this.release();
    leaderElectionMasterStatus.set({ name: this.options.name }, 0);
    return "stopped";
  }

  /**
   * One renewal round: retries until renewDeadline. "renewed" settles the writers waiting on the
   * fence; "stepped-down" when another replica validly holds the lease; "failed" when the deadline
   * passed (or the signal aborted) without a renewal.
   */
  private async renewRound(signal: AbortSignal): Promise<"renewed" | "stepped-down" | "failed"> {
    const deadline = this.now() + this.renewDeadlineMs;
    while (!signal.aborted) {
      const attempt = this.tryAcquireOrRenew();
      const outcome = await Promise.race([
        attempt,
        sleepUnlessAborted(Math.max(0, deadline - this.now()), signal).then(() => false),
      ]);
      if (outcome) {
        this.settleFence();
        return "renewed";
      }
      if (this.anotherValidHolder()) return "stepped-down";
      if (this.now() >= deadline || signal.aborted) break;
      await sleepUnlessAborted(Math.min(this.retryPeriodMs, Math.max(0, deadline - this.now())), signal);
      if (this.now() >= deadline) break;
    }
    return "failed";
  }

  private settleFence(err?: Error): void {
    const waiters = this.fenceWaiters;
    this.fenceWaiters = [];
    for (const w of waiters) err ? w.reject(err) : w.resolve();
  }

  /** Another replica holds a lease that has not expired on our clock. */
  private anotherValidHolder(): boolean {
    const observed = this.observedRecord;
    return (
      observed !== undefined &&
      observed.holderIdentity !== "" &&
      observed.holderIdentity !== this.identity &&
      this.observedTime + observed.leaseDurationSeconds * 1000 > this.now()
    );
  }

  private observe(record: LeaderElectionRecord, t: number): void {
    const raw = JSON.stringify(record);
    if (raw !== this.observedRaw) {
      this.observedRecord = record;
      this.observedRaw = raw;
      this.observedTime = t;
    }
    if (record.holderIdentity !== this.reportedLeader) {
      this.reportedLeader = record.holderIdentity;
      if (this.reportedLeader) {
        this.log.info({ leader: this.reportedLeader }, "new leader elected");
        this.options.onNewLeader?.(this.reportedLeader);
      }
    }
  }

  /** One attempt (client-go's tryAcquireOrRenew). */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const t = this.now();
    const t0 = formatMicroTime(t);
    const lock = this.lock;
    // Fast path: we hold a lease that has not expired locally; renew with what we know.
    const held = this.observedRecord;
    if (this.isLeader() && held && this.observedTime + held.leaseDurationSeconds * 1000 > t) {
      const renewed = { ...held, renewTime: t0 };
      try {
        await lock.update(renewed);
        this.observe(renewed, t);
        this.renewSentAt = t;
        return true;
      } catch (err) {
        this.log.debug({ err }, "lease fast-path renew failed; re-reading");
      }
    }
    let current: LeaderElectionRecord | undefined;
    try {
      current = await lock.get();
    } catch (err) {
      this.log.error({ err }, "error retrieving resource lock");
      return false;
    }
    if (!current) {
      const record: LeaderElectionRecord = {
        holderIdentity: this.identity,
        leaseDurationSeconds: this.leaseDurationSeconds,
        acquireTime: t0,
        renewTime: t0,
        leaseTransitions: 0,
      };
      try {
        await lock.create(record);
      } catch (err) {
        this.log.error({ err }, "error initially creating leader election record");
        return false;
      }
      this.observe(record, t);
      this.renewSentAt = t;
      return true;
    }
    this.observe(current, t);
    // Expiry is judged on our clock from when we last saw the record change, never on renewTime.
    if (
      current.holderIdentity !== "" &&
      current.holderIdentity !== this.identity &&
      this.observedTime + current.leaseDurationSeconds * 1000 > t
    ) {
      return false;
    }
    const weHold = current.holderIdentity === this.identity;
    const record: LeaderElectionRecord = {
      holderIdentity: this.identity,
      leaseDurationSeconds: this.leaseDurationSeconds,
      acquireTime: weHold ? current.acquireTime : t0,
      renewTime: t0,
      leaseTransitions: weHold ? current.leaseTransitions : current.leaseTransitions + 1,
    };
    try {
      await lock.update(record);
    } catch (err) {
      this.log.debug({ err }, "failed to update lease");
      return false;
    }
    this.observe(record, t);
    this.renewSentAt = t;
    return true;
  }

  private async release(): Promise<void> {
    const observed = this.observedRecord;
    if (!this.isLeader() || !observed) return;
    const t = formatMicroTime(this.now());
    const record: LeaderElectionRecord = {
      holderIdentity: "",
      leaseDurationSeconds: 1,
      acquireTime: t,
      renewTime: t,
      leaseTransitions: observed.leaseTransitions,
    };
    try {
      await this.lock.update(record);
      this.observe(record, this.now());
      this.log.info("released the lease");
    } catch (err) {
      this.log.error({ err }, "failed to release the lease");
    }
  }

  /** Until the next acquire attempt: retryPeriod with a little jitter, but no later than the moment the observed lease expires. */
  private acquireWait(): number {
    const jittered = this.retryPeriodMs * (0.8 + 0.2 * Math.random());
    if (this.observedRecord?.holderIdentity) {
      const untilExpiry =
        this.observedTime + this.observedRecord.leaseDurationSeconds * 1000 - this.now() + 1;
      if (untilExpiry > 0) return Math.min(jittered, untilExpiry);
    }
    return jittered;
  }

  /** Leadership ends: writers waiting on the fence are refused, and so is every later write. */
  private lose(reason: string): void {
    this.state = "gone";
    leaderElectionMasterStatus.set({ name: this.options.name }, 0);
    this.settleFence(new LeadershipLostError(`${reason}; refusing to write`));
  }
}
