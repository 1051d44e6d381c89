/**
 * Edits of existing files, only at named insertion points (`// +kubebuilder:scaffold:<name>` in
 * TypeScript, `# +kubebuilder:scaffold:<name>` in YAML and Makefiles), as Kubebuilder's machinery does:
 * each fragment goes immediately before its marker line, verbatim (fragments carry their indentation;
 * a YAML list item takes the indentation of the list it joins),
 * and a fragment whose lines already appear in the file, in order, is skipped, so re-runs change nothing.
 */
import { compareStrings } from "../compare.js";

export function commentPrefix(path: string): string {
  return /\.(ts|js|mts|cts|tsx)$/.test(path) ? "//" : "#";
}

export function markerText(name: string): string {
  return `+kubebuilder:scaffold:${name}`;
}

function isMarkerLine(line: string, comment: string, name: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith(comment) && trimmed.slice(comment.length).trim() === markerText(name);
}

/** True when every non-blank line of `fragment` appears in `lines` as a contiguous run (trimmed). */
function containsFragment(lines: string[], fragment: string): boolean {
  return findFragment(lines, fragment) !== undefined;
}

/** Whether `content` holds `fragment` as an insertion finds it (its non-blank lines in a run, trimmed). */
export function hasFragment(content: string, fragment: string): boolean {
  return containsFragment(content.split("\n"), fragment);
}

/**
 * Where `fragment`'s non-blank lines run contiguously (trimmed, blank lines between them skipped) in
 * `lines`: the [first, end) line indexes, or undefined. An empty fragment is found, empty, at 0.
 */
function findFragment(lines: string[], fragment: string): { first: number; end: number } | undefined {
  const want = fragment
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  if (want.length === 0) return { first: 0, end: 0 };
  const at = lines.flatMap((l, i) => (l.trim() === "" ? [] : [i]));
  outer: for (let i = 0; i + want.length <= at.length; i++) {
    for (let j = 0; j < want.length; j++) {
      if (lines[at[i + j]!]!.trim() !== want[j]) continue outer;
    }
    return { first: at[i]!, end: at[i + want.length - 1]! + 1 };
  }
  return undefined;
}

/** Drops each fragment's lines (found as insertAtMarkers finds them) wherever they occur; the inverse of an insertion. */
export function removeFragments(content: string, fragments: string[]): string {
  let lines = content.split("\n");
  for (const fragment of fragments) {
    for (let found = findFragment(lines, fragment); found && found.end > found.first; ) {
      lines = [...lines.slice(0, found.first), ...lines.slice(found.end)];
      found = findFragment(lines, fragment);
    }
  }
  return lines.join("\n");
}

/**
 * The indentation of the YAML list a marker closes: that of the nearest list item above it (comments
 * and blank lines skipped), so list-item fragments (written at column 0, as kbts scaffolds lists) join
 * a list the user re-indented. "" when the line above is not a list item.
 */
function listIndent(lines: string[], marker: number): string {
  for (let i = marker - 1; i >= 0; i--) {
    const line = lines[i] ?? "";
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    return /^(\s*)- /.exec(line)?.[1] ?? "";
  }
  return "";
}

export class MissingMarkerError extends Error {
  constructor(
    readonly path: string,
    readonly marker: string,
  ) {
    super(`${path}: insertion point "${marker}" not found`);
  }
}

/**
 * Inserts fragments before their markers. `fragments` maps a marker name to fragments, each a block of
 * lines ending without a newline. Throws MissingMarkerError when a marker with new fragments is absent.
 */
export function insertAtMarkers(path: string, content: string, fragments: Record<string, string[]>): string {
  const comment = commentPrefix(path);
  let lines = content.split("\n");
  for (const [name, blocks] of Object.entries(fragments)) {
    const fresh = blocks.filter((b, i) => !containsFragment(lines, b) && blocks.indexOf(b) === i);
    if (fresh.length === 0) continue;
    const at = lines.findIndex((l) => isMarkerLine(l, comment, name));
    if (at < 0) throw new MissingMarkerError(path, `${comment} ${markerText(name)}`);
    const indent = /\.ya?ml$/.test(path) ? listIndent(lines, at) : "";
    const added = fresh.flatMap((b) =>
      b.split("\n").map((l) => (indent !== "" && l !== "" && /^- /.test(b) ? indent + l : l)),
    );
    lines = [...lines.slice(0, at), ...added, ...lines.slice(at)];
  }
  return lines.join("\n");
}

/**
 * Uncomments an exact block (each line prefixed with `#`), as Kubebuilder's UncommentCode does for
 * config/default/kustomization.yaml. Returns the content unchanged when the block is not found
 * (already uncommented, or edited by the user), so it is idempotent and never touches user text.
 */
export function uncomment(content: string, block: string, comment = "#"): string {
  const at = content.indexOf(block);
  if (at < 0) return content;
  const plain = block
    .split("\n")
    .map((line) => {
      const lead = line.length - line.trimStart().length;
      const rest = line.slice(lead);
      return rest.startsWith(comment) ? line.slice(0, lead) + rest.slice(comment.length) : line;
    })
    .join("\n");
  return content.slice(0, at) + plain + content.slice(at + block.length);
}

/**
 * Keeps a TypeScript file's leading import block sorted the way the project's formatter (biome's
 * organizeImports) wants it after fragments were inserted: `node:` modules, then packages, then
 * relative paths, farthest (`../../`) first, each group in code-point order; one contiguous block,
 * then the rest of the file (the imports marker and code) unchanged. biome does the same on every
 * flush when the project has it installed; this copy keeps the order when it does not (no node_modules
 * yet), so a scaffold reads the same either way.
 */
export function organizeImports(content: string): string {
  const lines = content.split("\n");
  let i = 0;
  // Skip a leading license block and blank lines.
  if (lines[0]?.startsWith("/*")) {
    while (i < lines.length && !lines[i]!.includes("*/")) i++;
    i++;
  }
  while (i < lines.length && lines[i]!.trim() === "") i++;
  const start = i;
  const imports: string[] = [];
  const rest: string[] = [];
  let end = start;
  for (; end < lines.length; end++) {
    const line = lines[end]!;
    if (/^import .* from ".*";$/.test(line)) imports.push(line);
    else if (line.trim() === "" || line.trim().startsWith("//")) rest.push(line);
    else break;
  }
  if (imports.length < 2) return content;
  // Trailing lines of the region belong to what follows the imports (e.g. "", marker, "").
  const hadBlank = rest.length > 0;
  while (rest.length > 0 && rest[0]!.trim() === "") rest.shift();
  const sorted = [...imports].sort(compareImports);
  const region = rest.length > 0 ? [...sorted, "", ...rest] : hadBlank ? [...sorted, ""] : sorted;
  return [...lines.slice(0, start), ...region, ...lines.slice(end)].join("\n");
}

function sourceOf(line: string): string {
  return /from "(.*)";$/.exec(line)?.[1] ?? "";
}

function rank(source: string): number {
  if (source.startsWith("node:")) return 0;
  if (!source.startsWith(".")) return 1;
  const ups = source.match(/\.\.\//g)?.length ?? 0;
  return 100 - ups;
}

function compareImports(a: string, b: string): number {
  const sa = sourceOf(a);
  const sb = sourceOf(b);
  const r = rank(sa) - rank(sb);
  if (r !== 0) return r;
  if (sa !== sb) return compareStrings(sa, sb);
  // `import type` before a value import of the same module, as biome orders them.
  return a.startsWith("import type") === b.startsWith("import type")
    ? 0
    : a.startsWith("import type")
      ? -1
      : 1;
}

/**
 * Adds `name` to the value import from `source` (`import { a, b } from "source";`), or a new import
 * line after the last import when there is none; nothing when it is imported already. biome sorts
 * the names when the scaffold is formatted.
 */
export function addNamedImport(content: string, source: string, name: string): string {
  const lines = content.split("\n");
  const from = ` from "${source}";`;
  const at = lines.findIndex((l) => /^import \{[^}]*\} from "/.test(l) && l.endsWith(from));
  if (at >= 0) {
    const line = lines[at]!;
    const names = line
      .slice(line.indexOf("{") + 1, line.indexOf("}"))
      .split(",")
      .map((n) => n.trim());
    if (names.includes(name)) return content;
    lines[at] = `import { ${[...names.filter((n) => n !== ""), name].join(", ")} }${from}`;
    return lines.join("\n");
  }
  let last = -1;
  lines.forEach((l, i) => {
    if (l.startsWith("import ")) last = i;
  });
  lines.splice(last + 1, 0, `import { ${name} }${from}`);
  return lines.join("\n");
}
