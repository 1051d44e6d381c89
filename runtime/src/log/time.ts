/**
 * zap's time encoders (controller-runtime's --zap-time-encoding), as pino timestamp functions writing
 * the `time` field. Go formats in the process' time zone; these write UTC, what a pod has.
 */

export const TIME_ENCODINGS = ["epoch", "millis", "nano", "iso8601", "rfc3339", "rfc3339nano"] as const;
export type TimeEncoding = (typeof TIME_ENCODINGS)[number];

/**
 * performance.now() gives the sub-millisecond digits Date.now() lacks, but it is a monotonic clock: it
 * drifts from the wall clock (NTP slews, a suspended VM), by seconds in a long-lived process, so
 * timeOrigin + now() alone would stamp lines with the wrong time. The offset between the two clocks is
 * taken again whenever they disagree by a millisecond or more.
 */
let monotonicToWall = Date.now() - performance.now();

/** Wall-clock time in milliseconds with sub-millisecond digits, within 1 ms of Date.now(). */
export function nowMs(): number {
  const wall = Date.now();
  let ms = performance.now() + monotonicToWall;
  if (ms < wall || ms >= wall + 1) {
    monotonicToWall = wall - performance.now();
    ms = performance.now() + monotonicToWall;
  }
  return ms;
}

/** Nanoseconds since the epoch; exact as far as the clock goes (a double cannot hold them). */
function nowNs(ms: number): bigint {
  const whole = Math.floor(ms);
  return BigInt(whole) * 1_000_000n + BigInt(Math.round((ms - whole) * 1e6));
}

/** "2006-01-02T15:04:05" in UTC. */
function seconds(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

export function encodeTime(encoding: TimeEncoding, ms: number): string | number {
  switch (encoding) {
    case "epoch":
      return ms / 1000;
    case "millis":
      return ms;
    case "nano":
      return nowNs(ms).toString();
    case "iso8601":
      return new Date(ms).toISOString();
    case "rfc3339":
      return `${seconds(ms)}Z`;
    case "rfc3339nano": {
      // Go's .999999999: the fraction's trailing zeros (and an empty fraction's dot) are dropped.
      const fraction = (nowNs(ms) % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "");
      return `${seconds(ms)}${fraction ? `.${fraction}` : ""}Z`;
    }
  }
}

/** pino's `timestamp` option: the text spliced into each line, `,"time":...`. */
export function timestampFunction(encoding: TimeEncoding | undefined): () => string {
  if (encoding === undefined) return () => `,"time":"${new Date().toISOString()}"`;
  if (!TIME_ENCODINGS.includes(encoding)) {
    throw new Error(
      `createLogger: unknown timeEncoding "${String(encoding)}"; use one of ${TIME_ENCODINGS.join(", ")}`,
    );
  }
  return () => {
    const t = encodeTime(encoding, nowMs());
    // nano is an integer past 2^53: written as a JSON number from its digits, never through a double.
    return `,"time":${typeof t === "number" || encoding === "nano" ? t : JSON.stringify(t)}`;
  };
}
