/**
 * A short unified diff: the common head and tail are skipped and the one changed block in between is
 * shown with 3 lines of context (capped), which is what `--check` needs to say why a file is stale.
 */
export function shortDiff(path: string, before: string | undefined, after: string, maxLines = 20): string {
  if (before === undefined) return `--- ${path} (missing)\n+++ ${path}\n`;
  const a = before.split("\n");
  const b = after.split("\n");
  const { head, tail } = commonEnds(a, b);
  const ctx = 3;
  const start = Math.max(0, head - ctx);
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  const lines = [`--- ${path}`, `+++ ${path} (generated)`, `@@ -${start + 1} +${start + 1} @@`];
  for (const l of a.slice(start, head)) lines.push(` ${l}`);
  const cap = (xs: string[], sign: string) => {
    for (const l of xs.slice(0, maxLines)) lines.push(`${sign}${l}`);
    if (xs.length > maxLines) lines.push(`${sign}… ${xs.length - maxLines} more lines`);
  };
  cap(removed, "-");
  cap(added, "+");
  for (const l of a.slice(a.length - tail, a.length - tail + ctx)) lines.push(` ${l}`);
  return `${lines.join("\n")}\n`;
}

/** How many lines two texts share at their start and at their end; between them lies the one changed block. */
export function commonEnds(a: readonly string[], b: readonly string[]): { head: number; tail: number } {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  return { head, tail };
}
