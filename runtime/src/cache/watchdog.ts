/**
 * The two watchdogs of one watch (see the reflector's module comment): a connection can freeze or
 * go half-open without ever erroring, so silence is the only symptom.
 *  - The stall timer: no event or bookmark for the watch's own timeout plus a margin, and the watch
 *    is presumed dead.
 *  - The liveness check: after livenessCheckMs of silence, a short second watch (verify) must find
 *    nothing newer; if it finds newer events or gets no answer, the watch is dead.
 * Either aborts the watch; the reflector then asks `stalled`/`deadReason` why, and reconnects.
 */

export type WatchVerdict = "current" | "missed" | "unreachable";

export interface WatchWatchdogOptions {
  /** Silence after which the stall timer aborts the watch. */
  stallAfterMs: number;
  /** Silence after which the watch is verified (0: never). */
  livenessCheckMs: number;
  /** How long a verification may go unanswered (for the reason's wording). */
  livenessProbeTimeoutMs: number;
  /** A short second watch from the same resourceVersion, aborted with the watch. */
  verify(signal: AbortSignal): Promise<WatchVerdict>;
  /** A verification found the watch current. */
  onCurrent(): void;
  /** A verification found the watch dead; called before the watch is aborted. */
  onDead(reason: string): void;
}

export class WatchWatchdog {
  /** Set when the stall timer aborted the watch. */
  stalled = false;
  /** Set when the liveness check aborted the watch: why. */
  deadReason: string | undefined;
  private delivered = 0;
  private stallTimer: NodeJS.Timeout | undefined;
  private livenessTimer: NodeJS.Timeout | undefined;

  constructor(
    /** Aborts the watch being watched over. */
    private readonly watch: AbortController,
    private readonly options: WatchWatchdogOptions,
  ) {}

  /** Events (and bookmarks) delivered so far. */
  get events(): number {
    return this.delivered;
  }

  /** Arms both timers as the watch begins. */
  start(): void {
    this.armStallTimer();
    this.armLiveness();
  }

  /** An event or bookmark arrived: re-arms both timers, handles it, and counts it. */
  onEvent(handle: () => void): void {
    this.armStallTimer();
    this.armLiveness();
    handle();
    this.delivered++;
  }

  /** The watch ended: no timer may fire after it. */
  stop(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    if (this.livenessTimer) clearTimeout(this.livenessTimer);
  }

  private armStallTimer(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = setTimeout(() => {
      this.stalled = true;
      this.watch.abort();
    }, this.options.stallAfterMs);
    this.stallTimer.unref();
  }

  private armLiveness(): void {
    if (this.livenessTimer) clearTimeout(this.livenessTimer);
    if (!(this.options.livenessCheckMs > 0)) return;
    this.livenessTimer = setTimeout(() => void this.verify(), this.options.livenessCheckMs);
    this.livenessTimer.unref();
  }

  private async verify(): Promise<void> {
    const { livenessCheckMs, livenessProbeTimeoutMs } = this.options;
    const signal = this.watch.signal;
    const before = this.delivered;
    const verdict = await this.options.verify(signal);
    if (signal.aborted) return;
    // Something arrived meanwhile: the watch is alive, whatever the check saw in the race.
    if (verdict === "current" || this.delivered !== before) {
      if (verdict === "current") this.options.onCurrent();
      this.armLiveness();
      return;
    }
    const reason =
      verdict === "missed"
        ? `silent for ${livenessCheckMs} ms while a fresh watch saw newer events`
        : `silent for ${livenessCheckMs} ms and a verification watch got no answer within ${livenessProbeTimeoutMs} ms`;
    this.deadReason = reason;
    this.options.onDead(reason);
    this.watch.abort();
  }
}
