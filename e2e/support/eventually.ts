/**
 * The e2e tests', the demo's and the benchmarks' poll-until: the runtime tests' one helper
 * (runtime/src/internal/testdata/eventually.ts, both forms described there) with the e2e defaults: a
 * named wait 60 s, an assertion 30 s, polled every 250 ms.
 */
import {
  type EventuallyArgs,
  type EventuallyDefaults,
  poll,
} from "../../runtime/src/internal/testdata/eventually.js";

const E2E_DEFAULTS: EventuallyDefaults = { namedTimeoutMs: 60_000, timeoutMs: 30_000, intervalMs: 250 };

export function eventually<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs?: number,
  intervalMs?: number,
): Promise<T>;
export function eventually<T>(
  check: () => Promise<T> | T,
  timeoutMs?: number,
  intervalMs?: number,
): Promise<T>;
export function eventually<T>(...args: EventuallyArgs<T>): Promise<T> {
  return poll(E2E_DEFAULTS, args);
}
