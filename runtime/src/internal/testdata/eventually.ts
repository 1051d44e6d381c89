/**
 * The runtime tests' one poll-until (e2e/support/eventually.ts is its twin for the e2e tests), in two
 * forms:
 *
 * - `eventually(what, check, timeoutMs = 30_000, intervalMs = 200)` polls until `check` returns a value
 *   (not undefined); a throw counts as "not yet" and the last one is named in the timeout error.
 * - `eventually(check, timeoutMs = 30_000, intervalMs = 200)` polls until `check` stops throwing (its
 *   assertions pass) and returns its value; at the deadline it rethrows the last error.
 */
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
export async function eventually<T>(
  ...args:
    | [string, () => Promise<T | undefined> | T | undefined, number?, number?]
    | [() => Promise<T> | T, number?, number?]
): Promise<T> {
  if (typeof args[0] === "string") {
    const [what, check, timeoutMs = 30_000, intervalMs = 200] = args as [
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
  const [check, timeoutMs = 30_000, intervalMs = 200] = args as [() => Promise<T> | T, number?, number?];
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
