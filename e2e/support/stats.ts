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
