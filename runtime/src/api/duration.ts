/**
 * Durations as Go writes them. Everything in @kbts/runtime counts time in milliseconds; a Go author
 * may also write `"1m30s"` (time.ParseDuration's syntax, parsed strictly) or `minutes(1)`.
 */
import type { Duration } from "./meta.js";

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Milliseconds of a Go duration string ("300ms", "1.5h", "2h45m", "-1m"), or undefined when it is not
 * one. As time.ParseDuration: every number needs a unit, except a lone "0".
 */
export function parseDuration(value: string): number | undefined {
  const m = /^([-+]?)(.*)$/s.exec(value);
  const body = m?.[2] ?? "";
  if (body === "0") return 0;
  if (body === "") return undefined;
  const re = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let total = 0;
  let at = 0;
  while (at < body.length) {
    re.lastIndex = at;
    const part = re.exec(body);
    if (!part) return undefined;
    total += Number(part[1]) * (UNIT_MS[part[2] as string] as number);
    at = re.lastIndex;
  }
  return m?.[1] === "-" ? -total : total;
}

/** Milliseconds of a duration given as milliseconds or as a Go duration string; throws on anything else. */
export function toMilliseconds(duration: number | Duration, what = "duration"): number {
  if (typeof duration === "number") {
    if (!Number.isFinite(duration))
      throw new TypeError(`${what}: ${duration} is not a number of milliseconds`);
    return duration;
  }
  const ms = parseDuration(duration);
  if (ms === undefined) {
    throw new TypeError(
      `${what}: ${JSON.stringify(duration)} is not a duration; write milliseconds (60000), a Go duration ("1m", "1m30s", "500ms") or minutes(1)`,
    );
  }
  return ms;
}

/** `n` milliseconds (for symmetry with seconds(), minutes() and hours()). */
export const milliseconds = (n: number): number => n;
/** `n` seconds in milliseconds, as Go's `n * time.Second`. */
export const seconds = (n: number): number => n * 1000;
/** `n` minutes in milliseconds, as Go's `n * time.Minute`. */
export const minutes = (n: number): number => n * 60_000;
/** `n` hours in milliseconds, as Go's `n * time.Hour`. */
export const hours = (n: number): number => n * 3_600_000;
