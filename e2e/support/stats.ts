/** Summaries of measured samples, for the benchmarks and the e2e tests that measure. */

/** The p-th percentile (0–100) of ascending `sorted` by the nearest-rank method; NaN when empty. */
export function percentile(sorted: number[], p: number): number {
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}
