/**
 * client-go's retry.RetryOnConflict: re-run a read-modify-write while the API server answers 409
 * Conflict, with a short jittered backoff. Anything else, and the last conflict, is thrown.
 */

import { sleepUnlessAborted } from "../internal/sleep.js";
import { isConflict } from "./errors.js";

export interface Backoff {
  /** Attempts in total. */
  steps: number;
  /** First wait in ms. */
  durationMs: number;
  factor: number;
  /** Each wait is stretched by up to this fraction at random. */
  jitter: number;
  /** Upper bound for a single wait in ms. */
  capMs?: number;
}

/** client-go's retry.DefaultRetry: 5 steps, 10 ms, factor 1, jitter 0.1. */
export const defaultRetry: Readonly<Backoff> = Object.freeze({
  steps: 5,
  durationMs: 10,
  factor: 1,
  jitter: 0.1,
});
/** client-go's retry.DefaultBackoff: 4 steps, 10 ms, factor 5, jitter 0.1. */
export const defaultBackoff: Readonly<Backoff> = Object.freeze({
  steps: 4,
  durationMs: 10,
  factor: 5,
  jitter: 0.1,
});

export async function retryOnConflict<R>(fn: () => Promise<R>, backoff: Backoff = defaultRetry): Promise<R> {
  return retryOn(isConflict, fn, backoff);
}

/** Retries `fn` while `retriable(err)` holds, up to `backoff.steps` attempts. */
export async function retryOn<R>(
  retriable: (err: unknown) => boolean,
  fn: () => Promise<R>,
  backoff: Backoff = defaultRetry,
): Promise<R> {
  let wait = backoff.durationMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!retriable(err) || attempt >= backoff.steps) throw err;
    }
    let delay = wait * (1 + Math.random() * backoff.jitter);
    if (backoff.capMs !== undefined) delay = Math.min(delay, backoff.capMs);
    await sleepUnlessAborted(delay);
    wait *= backoff.factor;
  }
}
