/**
 * Description text as controller-gen extracts it from a doc comment (pkg/markers/zip.go extractDoc
 * after go/ast CommentGroup.Text): marker lines dropped, `//` and one space stripped, trailing spaces
 * trimmed, blank-line runs collapsed, outer blank lines removed; outside ``` / ~~~ fences, lines
 * starting with TODO are dropped and a line starting with --- ends the text.
 */
export function cleanDescription(rawLines: readonly string[]): string {
  const lines = rawLines.map((l) => l.replace(/[ \t\r]+$/, ""));
  const collapsed: string[] = [];
  for (const l of lines) {
    if (l === "" && (collapsed.length === 0 || collapsed[collapsed.length - 1] === "")) continue;
    collapsed.push(l);
  }
  while (collapsed.length > 0 && collapsed[collapsed.length - 1] === "") collapsed.pop();
  const out: string[] = [];
  let inFence = false;
  for (const line of collapsed) {
    if (line.startsWith("```") || line.startsWith("~~~")) inFence = !inFence;
    if (!inFence) {
      if (line.startsWith("TODO")) continue;
      if (line.startsWith("---")) break;
    }
    out.push(line);
  }
  return out.join("\n");
}

/** The text lines of one `//` comment: `//` and one following space removed. */
export function lineCommentText(comment: string): string {
  const body = comment.slice(2);
  return body.startsWith(" ") ? body.slice(1) : body;
}

/**
 * The text lines of a `/* *\/` or `/** *\/` block: delimiters and each line's leading `*` removed,
 * lines trimmed (controller-gen trims every line of a block comment).
 */
export function blockCommentLines(comment: string): string[] {
  const inner = comment.replace(/^\/\*\*?/, "").replace(/\*\/$/, "");
  const lines = inner.split(/\r?\n/).map((l) =>
    l
      .trim()
      .replace(/^\*(?!\/)\s?/, "")
      .trim(),
  );
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** A marker line is one whose text starts with `+` (after `//` or a block's `*`). */
export const isMarkerLine = (text: string): boolean => text.trimStart().startsWith("+");

/**
 * Tool directives are not description text (as Go's CommentGroup.Text drops `//go:` directives):
 * `@ts-expect-error`, `eslint-disable-next-line`, `biome-ignore`, `prettier-ignore` and the like.
 */
export const isDirectiveLine = (text: string): boolean =>
  /^\s*(@ts-(expect-error|ignore|nocheck|check)\b|eslint-(disable|enable)|biome-ignore|prettier-ignore|tslint:|istanbul ignore|c8 ignore|v8 ignore|jshint )/.test(
    text,
  ) || GLOBALS_DIRECTIVE.test(text);

/**
 * ESLint's and JSHint's `global a, b:writable` is only a list of names: prose that starts with the
 * word ("global defines the global parameters", prometheus-operator's Alertmanager) is a description.
 */
const GLOBALS_DIRECTIVE = /^\s*global\s+[\w$]+(\s*:\s*\w+)?(\s*,\s*[\w$]+(\s*:\s*\w+)?)*\s*$/;
