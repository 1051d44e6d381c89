import { isDeepStrictEqual } from "node:util";
import { isMap, isScalar, isSeq, type Node, type Pair, parseAllDocuments, stringify } from "yaml";
import { KbtsError } from "../errors.js";

/**
 * Edits of a YAML file another plugin (or the user) wrote, found through the `yaml` parser rather than
 * by exact text or indentation: the parser locates the node, and only that node's text is replaced, or
 * new lines are added at the column of their siblings. Everything else (comments, the file's own
 * indentation, commented-out blocks kustomize files are full of) stays byte for byte, which a
 * re-print of the whole Document would not keep. Each edit is idempotent.
 */

type Key = string | number;

export function documents(path: string, text: string) {
  const docs = parseAllDocuments(text);
  const bad = docs.flatMap((d) => d.errors)[0];
  if (bad) {
    const line = bad.linePos?.[0].line;
    throw new KbtsError(`${path} is not valid YAML: ${bad.message.split("\n")[0]}`, {
      where: line === undefined ? path : `${path}:${line}`,
      fix: "correct the YAML, then run the command again",
    });
  }
  return docs;
}

export function lineStart(text: string, at: number): number {
  return text.lastIndexOf("\n", at - 1) + 1;
}

function lineEnd(text: string, at: number): number {
  const end = text.indexOf("\n", at);
  return end < 0 ? text.length : end;
}

/** `lines` (rendered at column 0) inserted before the line where `at` lies, each indented by `indent`. */
export function insertLinesBefore(text: string, at: number, indent: string, lines: string): string {
  const from = lineStart(text, at);
  const block = lines
    .replace(/\n$/, "")
    .split("\n")
    .map((l) => `${indent}${l}`)
    .join("\n");
  return `${text.slice(0, from)}${block}\n${text.slice(from)}`;
}

/** The whitespace before the line's first character at `at` (a node's or a sequence dash's column). */
export function indentAt(text: string, at: number): string {
  const from = lineStart(text, at);
  return text.slice(from, from + (text.slice(from).length - text.slice(from).trimStart().length));
}

/** `lines` (rendered at column 0) inserted after the line where `at` lies, each indented by `indent`. */
export function insertLinesAfter(text: string, at: number, indent: string, lines: string): string {
  const end = lineEnd(text, at);
  const block = lines
    .replace(/\n$/, "")
    .split("\n")
    .map((l) => `${indent}${l}`)
    .join("\n");
  return end === text.length ? `${text}\n${block}` : `${text.slice(0, end)}\n${block}${text.slice(end)}`;
}

/** The key node of a top-level pair of the document. */
function keyNode(doc: { contents: unknown }, key: string): Node | undefined {
  if (!isMap(doc.contents)) return undefined;
  const pair = (doc.contents.items as Pair<Node, unknown>[]).find(
    (p) => isScalar(p.key) && p.key.value === key,
  );
  return pair?.key;
}

function notFound(path: string, keys: Key[]): KbtsError {
  return new KbtsError(`${path} has no ${keys.join(".")}`, {
    where: path,
    fix: `put ${keys.join(".")} back (kbts scaffolds it), or make this change yourself`,
  });
}

/** Sets the existing scalar at `keys` (in the first document that has it) to `value`. */
export function setYamlScalar(
  path: string,
  text: string,
  keys: Key[],
  value: string | number | boolean,
): string {
  for (const doc of documents(path, text)) {
    const node = doc.getIn(keys, true);
    if (!isScalar(node) || !node.range) continue;
    if (node.value === value) return text;
    const [start, end] = node.range;
    return text.slice(0, start) + String(value) + text.slice(end);
  }
  throw notFound(path, keys);
}

/**
 * Adds `key: value` to the block map at `mapKeys` (first document that has it), after the pair `after`
 * (or the map's last pair), at the column of the map's keys; nothing when the key is there already.
 */
export function addYamlMapPair(
  path: string,
  text: string,
  mapKeys: Key[],
  key: string,
  value: unknown,
  after?: string,
): string {
  for (const doc of documents(path, text)) {
    const map = doc.getIn(mapKeys, true);
    if (!isMap(map) || map.flow) continue;
    if (map.has(key)) return text;
    const pairs = map.items as Pair<Node, Node | null>[];
    const anchor = pairs.find((p) => isScalar(p.key) && p.key.value === after) ?? pairs.at(-1);
    const keyStart = (anchor?.key as Node | undefined)?.range?.[0];
    if (anchor === undefined || keyStart === undefined) continue;
    const valueEnd = anchor.value?.range?.[1] ?? (anchor.key as Node).range?.[1] ?? keyStart;
    const indent = " ".repeat(keyStart - lineStart(text, keyStart));
    return insertLinesAfter(text, valueEnd - 1, indent, stringify({ [key]: value }, { lineWidth: 0 }));
  }
  throw notFound(path, mapKeys);
}

/**
 * Adds `item` to the top-level sequence `key` of a one-document file (a kustomization's `resources`,
 * `patches`), after its last item (before its first with `first`) and at its items' column; the key is
 * created at the end when absent. Nothing when an equal item is there already.
 */
export function addYamlSeqItem(
  path: string,
  text: string,
  key: string,
  item: unknown,
  options: { first?: boolean } = {},
): string {
  const rendered = stringify([item], { lineWidth: 0, indentSeq: false });
  const doc = documents(path, text)[0];
  if (doc === undefined) return `${text}${key}:\n${rendered}`;
  const node = doc.get(key, true);
  if (isSeq(node) && !node.flow && node.items.length > 0) {
    const items = node.items as Node[];
    if (items.some((i) => isDeepStrictEqual(i.toJSON(), item))) return text;
    const first = items[0]?.range?.[0];
    const last = items.at(-1)?.range?.[1];
    if (first === undefined || last === undefined) throw notFound(path, [key]);
    const from = lineStart(text, first);
    const indent = text.slice(from, text.indexOf("-", from));
    if (options.first) {
      // Right under `key:`, above any comment that leads the first item.
      const keyEnd = keyNode(doc, key)?.range?.[1];
      return keyEnd === undefined
        ? insertLinesBefore(text, first, indent, rendered)
        : insertLinesAfter(text, keyEnd - 1, indent, rendered);
    }
    return insertLinesAfter(text, last - 1, indent, rendered);
  }
  if (node === undefined || node === null) {
    if (doc.has(key)) {
      // `key:` with no items yet: the first goes on the next line.
      const at = keyNode(doc, key)?.range?.[1];
      if (at !== undefined) return insertLinesAfter(text, at - 1, "", rendered);
    }
    const body = text === "" || text.endsWith("\n") ? text : `${text}\n`;
    return `${body}${key}:\n${rendered}`;
  }
  throw new KbtsError(`${path}: ${key} is not a block list`, {
    where: path,
    fix: `write ${key} as a list ("${key}:" then "- ..." lines), then run the command again`,
  });
}

/** Drops the items equal to `item` from the top-level sequence `key` (their whole lines); nothing when absent. */
export function removeYamlSeqItem(path: string, text: string, key: string, item: unknown): string {
  const [doc] = documents(path, text);
  const node = doc?.get(key, true);
  if (!isSeq(node) || node.flow) return text;
  let out = text;
  // From the last, so the offsets of the earlier items stay right.
  for (const i of [...(node.items as Node[])].reverse()) {
    if (!isDeepStrictEqual(i.toJSON(), item) || !i.range) continue;
    const from = lineStart(out, i.range[0]);
    const end = lineEnd(out, i.range[1] - 1);
    out = out.slice(0, from) + out.slice(end + 1);
  }
  return out;
}
