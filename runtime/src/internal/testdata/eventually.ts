/**
 * The one poll-until of the runtime tests, the e2e tests, the demo and the benchmarks
 * (e2e/support/eventually.ts is this with the e2e defaults), in two forms:
 *
 * - `eventually(what, check, timeoutMs, intervalMs)` polls until `check` returns a value (not
 *   undefined); a throw counts as "not yet". At the deadline the error names what was awaited and the
 *   last error `check` threw, so a timeout says why.
 * - `eventually(check, timeoutMs, intervalMs)` polls until `check` stops throwing (its assertions pass)
 *   and returns its value; at the deadline it rethrows the last error, the failed assertion itself.
 */
/** Default deadlines and interval: a named wait's, an assertion's, and the poll interval (ms). */
export interface EventuallyDefaults {
  namedTimeoutMs: number;
  timeoutMs: number;
  intervalMs: number;
}

/** The arguments of either form of `eventually`. */
export type EventuallyArgs<T> =
  | [string, () => Promise<T | undefined> | T | undefined, number?, number?]
  | [() => Promise<T> | T, number?, number?];

/** Polls as `eventually` does, with these defaults (each file's `eventually` is a declared function, so
 *  `kbts lint --tests` follows a test's call into the throw below). */
export async function poll<T>(defaults: EventuallyDefaults, args: EventuallyArgs<T>): Promise<T> {
  if (typeof args[0] === "string") {
    const [what, check, timeoutMs = defaults.namedTimeoutMs, intervalMs = defaults.intervalMs] = args as [
      string,
      () => Promise<T | undefined> | T | undefined,
      number?,
      number?,
    ];
    const deadline = Date.now() + timeoutMs;
    let last: unknown;
    while (Date.now() < deadline) {
      try {
        const value = await check();
        if (value !== undefined) return value;
      } catch (err) {
        last = err;
      }
      await sleep(intervalMs);
    }
    throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
  }
  const [check, timeoutMs = defaults.timeoutMs, intervalMs = defaults.intervalMs] = args as [
    () => Promise<T> | T,
    number?,
    number?,
  ];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(intervalMs);
    }
  }
}

/** The runtime tests' defaults: 30 s, polled every 200 ms. */
const RUNTIME_DEFAULTS: EventuallyDefaults = { namedTimeoutMs: 30_000, timeoutMs: 30_000, intervalMs: 200 };

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
  return poll(RUNTIME_DEFAULTS, args);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
