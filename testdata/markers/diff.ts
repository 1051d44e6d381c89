import { commonEnds } from "../../src/manifests/diff.js";

/**
 * A compact line diff for parity failures: common head and tail are trimmed, the differing middle is
 * shown with a few lines of context, so even an 8,000-line CRD fails with a screenful.
 */
export function lineDiff(expected: string, actual: string, context = 3, maxLines = 60): string {
  const a = expected.split("\n");
  const b = actual.split("\n");
  const { head, tail } = commonEnds(a, b);
  const from = Math.max(0, head - context);
  const out: string[] = [`@@ first difference at line ${head + 1} (- controller-gen / expected, + kbts) @@`];
  for (let i = from; i < head; i++) out.push(`  ${a[i]}`);
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  for (const l of removed.slice(0, maxLines)) out.push(`- ${l}`);
  if (removed.length > maxLines) out.push(`- ... ${removed.length - maxLines} more lines`);
  for (const l of added.slice(0, maxLines)) out.push(`+ ${l}`);
  if (added.length > maxLines) out.push(`+ ... ${added.length - maxLines} more lines`);
  for (let i = a.length - tail; i < Math.min(a.length, a.length - tail + context); i++) out.push(`  ${a[i]}`);
  return out.join("\n");
}
