/** Summaries of measured samples, for the benchmarks and the e2e tests that measure. */
import { loadavg } from "node:os";

/** The machine's 1, 5 and 15-minute load averages, one decimal each ("1.2 0.9 0.8"), printed beside figures. */
export function loadAverage(): string {
  return loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
}

/** The p-th percentile (0–100) of ascending `sorted` by the nearest-rank method; NaN when empty. */
export function percentile(sorted: number[], p: number): number {
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

/**
 * The environment without NODE_EXTRA_CA_CERTS, or undefined where it is not set. Node 20 reads that file
 * at every start, before any code runs (Node 24 only when TLS first needs it): tens of ms added to every
 * process, which flatters a ratio to a bare `node` and handicaps one to a Go binary. Benchmarks of
 * start-up show their figures without it too.
 */
export function withoutExtraCaCerts(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv | undefined {
  if (!env.NODE_EXTRA_CA_CERTS) return undefined;
  const rest = { ...env };
  delete rest.NODE_EXTRA_CA_CERTS;
  return rest;
}
