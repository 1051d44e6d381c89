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
  const name = options.name;
  const limiter = options.rateLimiter ?? exponentialFailureRateLimiter(5, 1_000_000);
  const keyOf: (item: T) => string = options.keyOf ?? defaultKeyOf;

  const items = new Map<string, Entry<T>>(); // pending (not handed out)
  const processing = new Map<string, number>(); // key → start time
  const levels = new Map<number, { fifo: { entry: Entry<T>; seq: number }[]; head: number }>();
  let sortedPriorities: number[] = [];
  const readyCount = new Map<number, number>();
  let readyTotal = 0;
  let seqCounter = 0;
  let waiters: ((v: QueueItem<T> | undefined) => void)[] = [];
  let drainWaiters: (() => void)[] = [];
  let isShutdown = false;
  const priorityLabels = new Set<string>();

  const labels = name ? { name, controller: name } : undefined;
  const unregister = name
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

  function priorityLabel(p: number): string {
    const l = String(p);
    if (priorityLabels.has(l)) return l;
    if (priorityLabels.size >= MAX_PRIORITY_LABELS) return "exceeded_cardinality_limit";
    priorityLabels.add(l);
    return l;
  }

  function setDepth(p: number, delta: number): void {
    const n = (readyCount.get(p) ?? 0) + delta;
    readyCount.set(p, n);
    readyTotal += delta;
    if (labels) workqueueDepth.set({ ...labels, priority: priorityLabel(p) }, n);
  }

  function pushToLevel(entry: Entry<T>): void {
    let level = levels.get(entry.priority);
    if (!level) {
      level = { fifo: [], head: 0 };
      levels.set(entry.priority, level);
      sortedPriorities = [...levels.keys()].sort((a, b) => b - a);
    }
    entry.seq = ++seqCounter;
    entry.parked = false;
    level.fifo.push({ entry, seq: entry.seq });
  }

  function becomeReady(entry: Entry<T>): void {
    entry.ready = true;
    entry.readyAt = performance.now();
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    setDepth(entry.priority, 1);
    if (labels) workqueueAdds.inc(labels);
    if (processing.has(entry.key)) entry.parked = true;
    else pushToLevel(entry);
  }

  function schedule(entry: Entry<T>, delay: number): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.readyAt = performance.now() + delay;
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      if (isShutdown || items.get(entry.key) !== entry || entry.ready) return;
      becomeReady(entry);
      dispatch();
    }, delay);
    entry.timer.unref?.();
  }

  function popReady(): Entry<T> | undefined {
    for (const p of sortedPriorities) {
      const level = levels.get(p);
      if (!level) continue;
      while (level.head < level.fifo.length) {
        const slot = level.fifo[level.head++];
        if (!slot) continue;
        const e = slot.entry;
        if (slot.seq === e.seq && items.get(e.key) === e && e.ready && !e.parked && e.priority === p) {
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

  function dispatch(): void {
    while (waiters.length > 0) {
      const entry = popReady();
      if (!entry) return;
      const waiter = waiters.shift();
      if (!waiter) return;
      items.delete(entry.key);
      setDepth(entry.priority, -1);
      const now = performance.now();
      processing.set(entry.key, now);
      if (labels) workqueueQueueDuration.observe(labels, Math.max(0, now - entry.readyAt) / 1000);
      waiter({ item: entry.item, priority: entry.priority });
    }
  }

  function addWithOptions(item: T, opts: AddOptions): void {
    if (isShutdown) return;
    const key = keyOf(item);
    const priority = opts.priority ?? 0;
    let after = opts.after ?? 0;
    if (opts.rateLimited) {
      const backoff = limiter.when(key);
      after = after > 0 ? Math.min(after, backoff) : backoff;
    }
    if (after > 0 && labels) workqueueRetries.inc(labels);

    const existing = items.get(key);
    if (!existing) {
      const entry: Entry<T> = { key, item, priority, readyAt: 0, ready: false, parked: false, seq: 0 };
      items.set(key, entry);
      if (after > 0) schedule(entry, after);
      else becomeReady(entry);
      dispatch();
      return;
    }

    existing.item = item;
    if (priority > existing.priority) {
      // Raising the priority moves a ready item to the end of its new level.
      if (existing.ready) {
        setDepth(existing.priority, -1);
        existing.priority = priority;
        setDepth(priority, 1);
        if (!existing.parked) pushToLevel(existing);
      } else {
        existing.priority = priority;
      }
    }
    // The earliest ready time wins; an item that is already ready stays ready.
    if (!existing.ready) {
      if (after <= 0) becomeReady(existing);
      else if (performance.now() + after < existing.readyAt) schedule(existing, after);
    }
    dispatch();
  }

  function checkDrained(): void {
    if (isShutdown && processing.size === 0) {
      const ws = drainWaiters;
      drainWaiters = [];
      for (const w of ws) w();
    }
  }

  return {
    add(item, opts) {
      addWithOptions(item, { ...opts });
    },
    addAfter(item, delayMs, opts) {
      addWithOptions(item, { ...opts, after: delayMs });
    },
    addRateLimited(item, opts) {
      addWithOptions(item, { ...opts, rateLimited: true });
    },
    get() {
      if (isShutdown) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        waiters.push(resolve);
        dispatch();
      });
    },
    done(item) {
      const key = keyOf(item);
      const start = processing.get(key);
      if (start === undefined) return;
      processing.delete(key);
      if (labels) workqueueWorkDuration.observe(labels, (performance.now() - start) / 1000);
      const pending = items.get(key);
      if (pending?.ready && pending.parked && !isShutdown) pushToLevel(pending);
      dispatch();
      checkDrained();
    },
    forget(item) {
      limiter.forget(keyOf(item));
    },
    numRequeues(item) {
      return limiter.numRequeues(keyOf(item));
    },
    len() {
      return readyTotal;
    },
    shutdown() {
      if (isShutdown) return;
      isShutdown = true;
      for (const e of items.values()) if (e.timer) clearTimeout(e.timer);
      const ws = waiters;
      waiters = [];
      for (const w of ws) w(undefined);
      unregister?.();
      checkDrained();
    },
    async shutdownWithDrain() {
      this.shutdown();
      if (processing.size === 0) return;
      await new Promise<void>((resolve) => drainWaiters.push(resolve));
    },
    shuttingDown() {
      return isShutdown;
    },
  };
}
