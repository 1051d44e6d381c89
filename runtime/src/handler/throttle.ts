import type { KubernetesObject } from "../api/meta.js";
import { requestKey } from "../reconcile/types.js";
import type { EventHandler, RequestQueue } from "./types.js";

export interface ThrottleOptions {
  /** Reconciles per second, per request, that this handler's events may start once its burst is spent. */
  perSecond: number;
  /** Reconciles a request may have at once after a quiet spell. */
  burst: number;
  /** The clock, in milliseconds (tests); performance.now by default. */
  now?: () => number;
}

/** Entries kept before the idle ones (burst refilled, nothing scheduled) are swept out. */
const SWEEP_AT = 4096;

/** One request's token bucket: `tokens` at time `at`, and when its deferred reconcile is due. */
interface Bucket {
  tokens: number;
  at: number;
  due: number;
}

/**
 * `handler`, enqueuing each request through a token bucket of its own (client-go's BucketRateLimiter,
 * per request). While the bucket holds a token an event is enqueued at once, so sparse changes are
 * reconciled as fast as without the throttle. Once the burst is spent, an event waits for the next
 * token, and the events until then fold into that one reconcile (the work queue keeps one entry per
 * request, the earliest time winning), which sees all of them.
 *
 * Why: a controller whose status sums many objects (a quota over a namespace's pods) otherwise
 * reconciles and rewrites its status on every event under churn. Each write is a full update of the
 * object on the API server, and it races the other writers of that status (a webhook's reservations)
 * into conflicts. controller-runtime's rate limiters apply to requeues only; its users call AddAfter.
 * Only `add` is throttled: `addAfter` and `addRateLimited` already say when.
 */
export function throttled<T extends KubernetesObject = KubernetesObject>(
  handler: EventHandler<T>,
  options: ThrottleOptions,
): EventHandler<T> {
  const { perSecond, burst } = options;
  if (!(perSecond > 0) || !(burst >= 1)) {
    throw new Error(
      `throttled: perSecond must be above 0 and burst at least 1, got ${perSecond} and ${burst}`,
    );
  }
  const now = options.now ?? (() => performance.now());
  const buckets = new Map<string, Bucket>();
  // Sweeping walks every bucket: past a sweep that left most of them busy, wait until the map doubles,
  // so a controller with thousands of requests under churn does not walk them all on each event.
  let sweepAt = SWEEP_AT;
  const refill = (b: Bucket, t: number) => {
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) * perSecond) / 1000);
    b.at = t;
  };
  const wrap = (queue: RequestQueue): RequestQueue => ({
    add(request, addOptions) {
      if (addOptions?.after !== undefined) return queue.add(request, addOptions);
      const key = requestKey(request);
      const t = now();
      if (buckets.size >= sweepAt) {
        for (const [k, b] of buckets) {
          refill(b, t);
          if (b.tokens >= burst && b.due <= t) buckets.delete(k);
        }
        sweepAt = Math.max(SWEEP_AT, buckets.size * 2);
      }
      let b = buckets.get(key);
      if (!b) {
        b = { tokens: burst, at: t, due: 0 };
        buckets.set(key, b);
      }
      // A reconcile already deferred: this event folds into it.
      if (b.due > t) return queue.addAfter(request, b.due - t, addOptions);
      refill(b, t);
      b.tokens -= 1;
      if (b.tokens >= 0) return queue.add(request, addOptions);
      // Spent: due when the bucket is back at zero; the token is taken now, so later events wait longer.
      b.due = t + (-b.tokens * 1000) / perSecond;
      queue.addAfter(request, b.due - t, addOptions);
    },
    addAfter: (request, delayMs, addOptions) => queue.addAfter(request, delayMs, addOptions),
    addRateLimited: (request, addOptions) => queue.addRateLimited(request, addOptions),
  });
  return {
    create: (e, q) => handler.create(e, wrap(q)),
    update: (e, q) => handler.update(e, wrap(q)),
    delete: (e, q) => handler.delete(e, wrap(q)),
    generic: (e, q) => handler.generic(e, wrap(q)),
  };
}
