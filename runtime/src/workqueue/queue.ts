import { performance } from "node:perf_hooks";
import {
  registerInFlightReporter,
  workqueueAdds,
  workqueueDepth,
  workqueueQueueDuration,
  workqueueRetries,
  workqueueWorkDuration,
} from "../metrics/workqueue.js";
import { type Request, requestKey } from "../reconcile/types.js";
import { exponentialFailureRateLimiter, type RateLimiter } from "./ratelimiter.js";

export interface AddOptions {
  /** Delay in ms before the item becomes ready; ≤ 0 means now. The earliest pending time wins. */
  after?: number;
  /** Delay by the rate limiter's backoff for this item (min with `after` when both are given). */
  rateLimited?: boolean;
  /** Higher is handed out first; FIFO within a level. The highest priority seen wins. Default 0. */
  priority?: number;
}

export interface QueueItem<T> {
  item: T;
  priority: number;
}

/**
 * controller-runtime's priority work queue (its default since v0.23): deduplicates pending items,
 * never hands out a key that is being processed (a re-add during processing waits for `done`),
 * supports delayed and rate-limited adds, and drains on shutdown.
 */
export interface RateLimitingQueue<T> {
  add(item: T, options?: AddOptions): void;
  addAfter(item: T, delayMs: number, options?: Omit<AddOptions, "after">): void;
  addRateLimited(item: T, options?: Omit<AddOptions, "rateLimited">): void;
  /** Waits for the next ready item; undefined once the queue is shut down. Call `done` when finished. */
  get(): Promise<QueueItem<T> | undefined>;
  done(item: T): void;
  /** Ends the item's backoff (the rate limiter's failure count). */
  forget(item: T): void;
  numRequeues(item: T): number;
  /** Ready items (not counting delayed ones). */
  len(): number;
  /** Stops handing out items; pending `get`s resolve undefined; later adds are ignored. */
  shutdown(): void;
  /** shutdown, then resolves once every handed-out item is `done`. */
  shutdownWithDrain(): Promise<void>;
  shuttingDown(): boolean;
}

export interface QueueOptions<T> {
  /** Enables workqueue_* metrics with name=controller=this. Unnamed queues record none. */
  name?: string;
  /** Default: per-item exponential 5 ms → 1000 s. */
  rateLimiter?: RateLimiter;
  /** Dedup key; default: the string itself, or "namespace/name" for a Request. */
  keyOf?: (item: T) => string;
}

interface Entry<T> {
  key: string;
  item: T;
  priority: number;
  /** performance.now() time at which it is (or becomes) ready. */
  readyAt: number;
  ready: boolean;
  /** Ready, but its key is being processed: not in a level until `done`. */
  parked: boolean;
  /** FIFO position; bumped when re-leveled so stale level slots can be skipped. */
  seq: number;
  timer?: NodeJS.Timeout;
}

const MAX_PRIORITY_LABELS = 25;

function defaultKeyOf(item: unknown): string {
  if (typeof item === "string") return item;
  if (item && typeof item === "object" && typeof (item as Request).name === "string") {
    return requestKey(item as Request);
  }
  throw new Error("workqueue: items that are neither strings nor Requests need a keyOf option");
}

export function createRateLimitingQueue<T = Request>(options: QueueOptions<T> = {}): RateLimitingQueue<T> {
  return new PriorityQueue(options);
}

class PriorityQueue<T> implements RateLimitingQueue<T> {
  private readonly limiter: RateLimiter;
  private readonly keyOf: (item: T) => string;
  /** Enables the workqueue_* metrics; undefined for an unnamed queue. */
  private readonly labels: { name: string; controller: string } | undefined;
  private readonly unregister: (() => void) | undefined;

  private readonly items = new Map<string, Entry<T>>(); // pending (not handed out)
  private readonly processing = new Map<string, number>(); // key → start time
  private readonly levels = new Map<number, { fifo: { entry: Entry<T>; seq: number }[]; head: number }>();
  private sortedPriorities: number[] = [];
  private readonly readyCount = new Map<number, number>();
  private readyTotal = 0;
  private seqCounter = 0;
  private waiters: ((v: QueueItem<T> | undefined) => void)[] = [];
  private drainWaiters: (() => void)[] = [];
  private isShutdown = false;
  private readonly priorityLabels = new Set<string>();

  constructor(options: QueueOptions<T>) {
    const name = options.name;
    this.limiter = options.rateLimiter ?? exponentialFailureRateLimiter(5, 1_000_000);
    this.keyOf = options.keyOf ?? defaultKeyOf;
    const labels = name ? { name, controller: name } : undefined;
    this.labels = labels;
    const processing = this.processing;
    this.unregister = name
      ? registerInFlightReporter({
          name,
          inFlight() {
            const now = performance.now();
            let sum = 0;
            let longest = 0;
            for (const start of processing.values()) {
              const s = (now - start) / 1000;
              sum += s;
              if (s > longest) longest = s;
            }
            return { unfinishedSeconds: sum, longestSeconds: longest };
          },
        })
      : undefined;
    if (labels) {
      workqueueAdds.inc(labels, 0);
      workqueueRetries.inc(labels, 0);
      workqueueQueueDuration.zero(labels);
      workqueueWorkDuration.zero(labels);
      workqueueDepth.set({ ...labels, priority: "0" }, 0);
    }
  }

  add(item: T, opts?: AddOptions): void {
    this.addWithOptions(item, { ...opts });
  }

  addAfter(item: T, delayMs: number, opts?: Omit<AddOptions, "after">): void {
    this.addWithOptions(item, { ...opts, after: delayMs });
  }

  addRateLimited(item: T, opts?: Omit<AddOptions, "rateLimited">): void {
    this.addWithOptions(item, { ...opts, rateLimited: true });
  }

  get(): Promise<QueueItem<T> | undefined> {
    if (this.isShutdown) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.dispatch();
    });
  }

  done(item: T): void {
    const key = this.keyOf(item);
    const start = this.processing.get(key);
    if (start === undefined) return;
    this.processing.delete(key);
    if (this.labels) workqueueWorkDuration.observe(this.labels, (performance.now() - start) / 1000);
    const pending = this.items.get(key);
    if (pending?.ready && pending.parked && !this.isShutdown) this.pushToLevel(pending);
    this.dispatch();
    this.checkDrained();
  }

  forget(item: T): void {
    this.limiter.forget(this.keyOf(item));
  }

  numRequeues(item: T): number {
    return this.limiter.numRequeues(this.keyOf(item));
  }

  len(): number {
    return this.readyTotal;
  }

  shutdown(): void {
    if (this.isShutdown) return;
    this.isShutdown = true;
    for (const e of this.items.values()) if (e.timer) clearTimeout(e.timer);
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w(undefined);
    this.unregister?.();
    this.checkDrained();
  }

  async shutdownWithDrain(): Promise<void> {
    this.shutdown();
    if (this.processing.size === 0) return;
    await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }

  shuttingDown(): boolean {
    return this.isShutdown;
  }

  private priorityLabel(p: number): string {
    const l = String(p);
    if (this.priorityLabels.has(l)) return l;
    if (this.priorityLabels.size >= MAX_PRIORITY_LABELS) return "exceeded_cardinality_limit";
    this.priorityLabels.add(l);
    return l;
  }

  private setDepth(p: number, delta: number): void {
    const n = (this.readyCount.get(p) ?? 0) + delta;
    this.readyCount.set(p, n);
    this.readyTotal += delta;
    if (this.labels) workqueueDepth.set({ ...this.labels, priority: this.priorityLabel(p) }, n);
  }

  private pushToLevel(entry: Entry<T>): void {
    let level = this.levels.get(entry.priority);
    if (!level) {
      level = { fifo: [], head: 0 };
      this.levels.set(entry.priority, level);
      this.sortedPriorities = [...this.levels.keys()].sort((a, b) => b - a);
    }
    entry.seq = ++this.seqCounter;
    entry.parked = false;
    level.fifo.push({ entry, seq: entry.seq });
  }

  private becomeReady(entry: Entry<T>): void {
    entry.ready = true;
    entry.readyAt = performance.now();
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    this.setDepth(entry.priority, 1);
    if (this.labels) workqueueAdds.inc(this.labels);
    if (this.processing.has(entry.key)) entry.parked = true;
    else this.pushToLevel(entry);
  }

  private schedule(entry: Entry<T>, delay: number): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.readyAt = performance.now() + delay;
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      if (this.isShutdown || this.items.get(entry.key) !== entry || entry.ready) return;
      this.becomeReady(entry);
      this.dispatch();
    }, delay);
    entry.timer.unref?.();
  }

  private popReady(): Entry<T> | undefined {
    for (const p of this.sortedPriorities) {
      const level = this.levels.get(p);
      if (!level) continue;
      while (level.head < level.fifo.length) {
        const slot = level.fifo[level.head++];
        if (!slot) continue;
        const e = slot.entry;
        if (slot.seq === e.seq && this.items.get(e.key) === e && e.ready && !e.parked && e.priority === p) {
          if (level.head > 1024 && level.head * 2 > level.fifo.length) {
            level.fifo = level.fifo.slice(level.head);
            level.head = 0;
          }
          return e;
        }
      }
      level.fifo = [];
      level.head = 0;
    }
    return undefined;
  }

  private dispatch(): void {
    while (this.waiters.length > 0) {
      const entry = this.popReady();
      if (!entry) return;
      const waiter = this.waiters.shift();
      if (!waiter) return;
      this.items.delete(entry.key);
      this.setDepth(entry.priority, -1);
      const now = performance.now();
      this.processing.set(entry.key, now);
      if (this.labels) workqueueQueueDuration.observe(this.labels, Math.max(0, now - entry.readyAt) / 1000);
      waiter({ item: entry.item, priority: entry.priority });
    }
  }

  private addWithOptions(item: T, opts: AddOptions): void {
    if (this.isShutdown) return;
    const key = this.keyOf(item);
    const priority = opts.priority ?? 0;
    let after = opts.after ?? 0;
    if (opts.rateLimited) {
      const backoff = this.limiter.when(key);
      after = after > 0 ? Math.min(after, backoff) : backoff;
    }
    if (after > 0 && this.labels) workqueueRetries.inc(this.labels);

    const existing = this.items.get(key);
    if (!existing) {
      const entry: Entry<T> = { key, item, priority, readyAt: 0, ready: false, parked: false, seq: 0 };
      this.items.set(key, entry);
      if (after > 0) this.schedule(entry, after);
      else this.becomeReady(entry);
      this.dispatch();
      return;
    }

    existing.item = item;
    if (priority > existing.priority) {
      // Raising the priority moves a ready item to the end of its new level.
      if (existing.ready) {
        this.setDepth(existing.priority, -1);
        existing.priority = priority;
        this.setDepth(priority, 1);
        if (!existing.parked) this.pushToLevel(existing);
      } else {
        existing.priority = priority;
      }
    }
    // The earliest ready time wins; an item that is already ready stays ready.
    if (!existing.ready) {
      if (after <= 0) this.becomeReady(existing);
      else if (performance.now() + after < existing.readyAt) this.schedule(existing, after);
    }
    this.dispatch();
  }

  private checkDrained(): void {
    if (this.isShutdown && this.processing.size === 0) {
      const ws = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of ws) w();
    }
  }
}
