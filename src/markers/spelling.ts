/** "Did you mean" suggestions: edit distance and the closest of some known names. */

export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[b.length] as number;
}

export interface ClosestOptions {
  /** The largest distance still worth suggesting, for a name of this length. */
  within: (name: string) => number;
  ignoreCase?: boolean;
}

/** The option nearest to `name` (the first of equals), or undefined when none is near enough. */
export function closest(name: string, options: Iterable<string>, opts: ClosestOptions): string | undefined {
  const fold = (s: string) => (opts.ignoreCase ? s.toLowerCase() : s);
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const o of options) {
    const d = editDistance(fold(name), fold(o));
    if (d < bestD) {
      bestD = d;
      best = o;
    }
  }
  return best !== undefined && bestD <= opts.within(name) ? best : undefined;
}
