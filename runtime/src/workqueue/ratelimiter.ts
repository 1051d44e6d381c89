/**
 * client-go's workqueue rate limiters, keyed by the item's string key. Delays are milliseconds.
 * `when` is asked each time an item is re-added with backoff; `forget` ends its backoff.
 */
export interface RateLimiter {
  when(key: string): number;
  forget(key: string): void;
  numRequeues(key: string): number;
}

/** base·2^failures per item, capped at max (controller-runtime's default: 5 ms → 1000 s). */
export function exponentialFailureRateLimiter(baseDelayMs = 5, maxDelayMs = 1_000_000): RateLimiter {
  if (!(baseDelayMs > 0) || !(maxDelayMs >= baseDelayMs)) {
    throw new Error(
      `exponentialFailureRateLimiter: need 0 < baseDelayMs <= maxDelayMs, got ${baseDelayMs} and ${maxDelayMs}`,
    );
  }
  const failures = new Map<string, number>();
  return {
    when(key) {
      const n = failures.get(key) ?? 0;
      failures.set(key, n + 1);
      const delay = baseDelayMs * 2 ** n;
      return Number.isFinite(delay) && delay <= maxDelayMs ? delay : maxDelayMs;
    },
    forget(key) {
      failures.delete(key);
    },
    numRequeues(key) {
      return failures.get(key) ?? 0;
    },
  };
}

/** A global token bucket (qps, burst), as golang.org/x/time/rate's Reserve().Delay(). Not per item. */
export function bucketRateLimiter(qps: number, burst: number, now: () => number = Date.now): RateLimiter {
  if (!(qps > 0) || !(burst >= 1)) {
    throw new Error(`bucketRateLimiter: need qps > 0 and burst >= 1, got ${qps} and ${burst}`);
  }
  let tokens = burst;
  let last = now();
  return {
    when() {
      const t = now();
      tokens = Math.min(burst, tokens + ((t - last) * qps) / 1000);
      last = t;
      tokens -= 1; // reserve, possibly going into debt: later callers wait longer
      return tokens >= 0 ? 0 : (-tokens * 1000) / qps;
    },
    forget() {},
    numRequeues() {
      return 0;
    },
  };
}

/** The worst (longest) delay of several limiters; forget/numRequeues apply to all / the max. */
export function maxOfRateLimiter(...limiters: RateLimiter[]): RateLimiter {
  if (limiters.length === 0) throw new Error("maxOfRateLimiter: give at least one rate limiter");
  return {
    when(key) {
      return Math.max(...limiters.map((l) => l.when(key)));
    },
    forget(key) {
      for (const l of limiters) l.forget(key);
    },
    numRequeues(key) {
      return Math.max(...limiters.map((l) => l.numRequeues(key)));
    },
  };
}

/**
 * client-go's DefaultControllerRateLimiter (the legacy queue's): max of per-item 5 ms → 1000 s and a
 * 10 qps / burst 100 bucket. Controllers default to the per-item limiter alone, as controller-runtime ≥ 0.23.
 */
export function defaultControllerRateLimiter(): RateLimiter {
  return maxOfRateLimiter(exponentialFailureRateLimiter(5, 1_000_000), bucketRateLimiter(10, 100));
}
