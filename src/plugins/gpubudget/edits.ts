/**
 * Text edits of files that have no insertion marker at the place the GPUBudget plugin needs (the
 * flags object of cmd/main.ts, kustomization lists, package.json, the Makefile). Each is anchored on
 * text the base plugin writes, and idempotent: applying it twice changes nothing the second time.
 */

/** Inserts `block` after the first line matching `anchor`, unless the block is already there. */
export function insertAfterLine(text: string, anchor: RegExp, block: string): string {
  if (text.includes(block)) return text;
  const lines = text.split("\n");
  const at = lines.findIndex((l) => anchor.test(l));
  if (at < 0) throw new Error(`anchor ${anchor} not found`);
  return [...lines.slice(0, at + 1), block, ...lines.slice(at + 1)].join("\n");
}

/** Replaces every line matching `pattern` with `replacement` (dropped when ""), once `replacement` is absent. */
export function replaceLineContaining(text: string, pattern: RegExp, replacement: string): string {
  if (replacement !== "" && text.includes(replacement)) {
    return text
      .split("\n")
      .filter((l) => !pattern.test(l))
      .join("\n");
  }
  const out: string[] = [];
  let replaced = false;
  for (const line of text.split("\n")) {
    if (!pattern.test(line)) out.push(line);
    else if (!replaced && replacement !== "") {
      out.push(replacement);
      replaced = true;
    }
  }
  return out.join("\n");
}

/**
 * Replaces the block `from` with `to`; when `to` is already there (a re-run, where the base plugin has
 * written `from` again), drops `from` instead.
 */
export function replaceBlock(text: string, from: string, to: string): string {
  if (text.includes(to)) return text.replaceAll(`${from}\n`, "");
  if (!text.includes(from)) throw new Error(`block not found:\n${from}`);
  return text.replace(from, to);
}

/** Adds `entry` to the top-level YAML list `key` (creating the key at the end when absent). */
export function addYamlListEntry(text: string, key: string, entry: string): string {
  const lines = text.split("\n");
  if (lines.some((l) => l.trim() === entry.trim())) return text;
  const at = lines.indexOf(`${key}:`);
  if (at < 0) {
    const body = text.endsWith("\n") ? text : `${text}\n`;
    return `${body}${key}:\n${entry}\n`;
  }
  // After the list's last item (items start with "-" or are indented), so the order of entries is kept.
  let end = at + 1;
  while (end < lines.length && /^(-|\s+\S)/.test(lines[end] ?? "")) end++;
  return [...lines.slice(0, end), entry, ...lines.slice(end)].join("\n");
}

/** Appends a documented .PHONY target to a Makefile unless a target of that name exists. */
export function addMakeTarget(text: string, name: string, help: string, recipe: string): string {
  if (new RegExp(`^${name}:`, "m").test(text)) return text;
  const body = text.endsWith("\n") ? text : `${text}\n`;
  return `${body}\n.PHONY: ${name}\n${name}: ## ${help}\n\t${recipe}\n`;
}
