import { compareYamlKeys } from "./keys.js";
import { charactersOf, isBreak, isPrintable, isSpace, scalarStyle } from "./scalar.js";

/**
 * A YAML writer that reproduces controller-gen's output byte for byte: JSON data marshalled by
 * gopkg.in/yaml.v2 (block style, sorted keys, indentless sequences, 2-space indent, plain scalars
 * folded at column 80, literal `|-` blocks for multi-line strings).
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const BEST_WIDTH = 80;

/** One YAML document (no leading `---`), ending with a newline. */
export function toYaml(value: JsonValue): string {
  const w = new Writer();
  if (isCollection(value) && !isEmpty(value)) w.node(value, 0);
  else {
    w.scalarOrEmpty(value, 0);
  }
  return w.finish();
}

/** Several documents, each preceded by `---` as controller-gen writes them. */
export function toYamlDocuments(values: JsonValue[]): string {
  return values.map((v) => `---\n${toYaml(v)}`).join("");
}

const isCollection = (v: JsonValue): v is JsonValue[] | { [key: string]: JsonValue } =>
  v !== null && typeof v === "object";
const isEmpty = (v: JsonValue[] | { [key: string]: JsonValue }): boolean =>
  Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0;

/** Go's strconv.FormatFloat(f, 'g', -1, 64), which yaml.v2 uses for floats. */
export function formatNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  if (!Number.isFinite(n)) return Number.isNaN(n) ? ".nan" : n > 0 ? "+.inf" : "-.inf";
  const exp = n.toExponential(); // shortest digits, "d.ddde±x"
  const [mant, e] = exp.split("e") as [string, string];
  const x = Number(e);
  if (x < -4 || x >= 6) {
    const sign = x < 0 ? "-" : "+";
    const abs = Math.abs(x);
    return `${mant}e${sign}${abs < 10 ? `0${abs}` : abs}`;
  }
  return String(n);
}

class Writer {
  private out: string[] = [];
  private column = 0;
  /** Set after a literal block that ended with its own newline. */
  private lineEnded = false;

  finish(): string {
    return this.lineEnded ? this.out.join("") : `${this.out.join("")}\n`;
  }

  private write(s: string): void {
    this.out.push(s);
    // yaml.v2 counts its column in code points (a surrogate pair is one).
    this.column += charactersOf(s).length;
  }

  private newline(indent: number): void {
    this.out.push(this.lineEnded ? " ".repeat(indent) : `\n${" ".repeat(indent)}`);
    this.lineEnded = false;
    this.column = indent;
  }

  /** A collection; the cursor is at line start (top level) or just after `key:` / `-`. */
  node(value: JsonValue[] | { [key: string]: JsonValue }, indent: number): void {
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        if (i > 0) this.newline(indent);
        this.write("-");
        this.value(item, indent + 2);
      });
      return;
    }
    const keys = Object.keys(value).sort(compareYamlKeys);
    keys.forEach((key, i) => {
      if (i > 0) this.newline(indent);
      this.scalar(key, indent, true);
      this.write(":");
      const v = value[key] as JsonValue;
      if (isCollection(v) && !isEmpty(v)) {
        if (Array.isArray(v)) {
          this.newline(indent);
          this.node(v, indent);
        } else {
          this.newline(indent + 2);
          this.node(v, indent + 2);
        }
      } else {
        this.value(v, indent + 2);
      }
    });
  }

  /** A value after `key:` or `-`; `indent` is the indentation of nested content. */
  private value(v: JsonValue, indent: number): void {
    this.write(" ");
    if (isCollection(v) && !isEmpty(v)) this.node(v, indent);
    else this.scalarOrEmpty(v, indent);
  }

  scalarOrEmpty(v: JsonValue, indent: number): void {
    if (v === null) this.write("null");
    else if (typeof v === "boolean") this.write(v ? "true" : "false");
    else if (typeof v === "number") this.write(formatNumber(v));
    else if (typeof v === "string") this.scalar(v, indent, false);
    else this.write(Array.isArray(v) ? "[]" : "{}");
  }

  private scalar(s: string, indent: number, simpleKey: boolean): void {
    switch (scalarStyle(s, simpleKey)) {
      case "plain":
        this.plain(s, indent, !simpleKey);
        return;
      case "single":
        this.singleQuoted(s, indent, !simpleKey);
        return;
      case "double":
        this.doubleQuoted(s, indent, !simpleKey);
        return;
      case "literal":
        this.literal(s, indent);
        return;
    }
  }

  private plain(s: string, indent: number, allowBreaks: boolean): void {
    if (!s.includes(" ")) {
      this.write(s);
      return;
    }
    // Written a run of characters at a time: the column only matters at a space, where it may fold.
    const chars = charactersOf(s);
    let spaces = false;
    let run = "";
    let runColumns = 0;
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i] as string;
      if (isSpace(c)) {
        if (allowBreaks && !spaces && this.column + runColumns > BEST_WIDTH && !isSpace(chars[i + 1])) {
          this.write(run);
          run = "";
          runColumns = 0;
          this.newline(indent);
        } else {
          run += c;
          runColumns++;
        }
        spaces = true;
      } else {
        run += c;
        runColumns++;
        spaces = false;
      }
    }
    this.write(run);
  }

  private singleQuoted(s: string, indent: number, allowBreaks: boolean): void {
    const chars = charactersOf(s);
    this.write("'");
    let spaces = false;
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i] as string;
      if (isSpace(c)) {
        const fold =
          allowBreaks &&
          !spaces &&
          this.column > BEST_WIDTH &&
          i !== 0 &&
          i !== chars.length - 1 &&
          !isSpace(chars[i + 1]);
        if (fold) this.newline(indent);
        else this.write(c);
        spaces = true;
      } else {
        this.write(c === "'" ? "''" : c);
        spaces = false;
      }
    }
    this.write("'");
  }

  private doubleQuoted(s: string, indent: number, allowBreaks: boolean): void {
    const chars = charactersOf(s);
    this.write('"');
    let spaces = false;
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i] as string;
      if (!isPrintable(c) || c === "\ufeff" || isBreak(c) || c === '"' || c === "\\") {
        this.write(escapeChar(c));
        spaces = false;
      } else if (isSpace(c)) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i !== 0 && i !== chars.length - 1) {
          this.newline(indent);
          if (isSpace(chars[i + 1])) this.write("\\");
        } else {
          this.write(c);
        }
        spaces = true;
      } else {
        this.write(c);
        spaces = false;
      }
    }
    this.write('"');
  }

  private literal(s: string, indent: number): void {
    const chars = charactersOf(s);
    let header = "|";
    if (isSpace(chars[0]) || isBreak(chars[0])) header += "2";
    const last = chars[chars.length - 1];
    if (!isBreak(last)) header += "-";
    else if (chars.length === 1 || isBreak(chars[chars.length - 2])) header += "+";
    this.write(header);
    // Lines are written without the trailing newline of the document; `finish` adds the last one.
    const lines: string[] = [];
    let current = "";
    for (const c of chars) {
      if (isBreak(c)) {
        lines.push(current);
        current = "";
      } else current += c;
    }
    lines.push(current);
    // A trailing break yields a final empty "line" that must not be indented.
    const endsWithBreak = isBreak(last);
    if (endsWithBreak) lines.pop();
    for (const line of lines) {
      if (line === "") {
        this.out.push(this.lineEnded ? "" : "\n");
        this.column = 0;
      } else {
        this.newline(indent);
        this.write(line);
      }
    }
    if (endsWithBreak) {
      // The block's final newline is part of the value; the next line must not add another.
      this.out.push("\n");
      this.column = 0;
      this.lineEnded = true;
    }
  }
}

function escapeChar(c: string): string {
  switch (c) {
    case "\0":
      return "\\0";
    case "\x07":
      return "\\a";
    case "\b":
      return "\\b";
    case "\t":
      return "\\t";
    case "\n":
      return "\\n";
    case "\x0b":
      return "\\v";
    case "\f":
      return "\\f";
    case "\r":
      return "\\r";
    case "\x1b":
      return "\\e";
    case '"':
      return '\\"';
    case "\\":
      return "\\\\";
    case "\u0085":
      return "\\N";
    case "\u00a0":
      return "\\_";
    case "\u2028":
      return "\\L";
    case "\u2029":
      return "\\P";
  }
  const cp = c.codePointAt(0) ?? 0;
  if (cp <= 0xff) return `\\x${cp.toString(16).toUpperCase().padStart(2, "0")}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  return `\\U${cp.toString(16).toUpperCase().padStart(8, "0")}`;
}

/**
 * A value as its YAML reads back: a JSON copy (undefined dropped) with every mapping's keys in the
 * emitter's order. Generators hand these objects along beside the text, so readers see the same thing
 * whether they got the object or parsed the file.
 */
export function toJsonValue(value: unknown): JsonValue {
  return sortKeys(JSON.parse(JSON.stringify(value)) as JsonValue);
}

function sortKeys(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== "object") return v;
  const out: { [key: string]: JsonValue } = {};
  for (const k of Object.keys(v).sort(compareYamlKeys)) out[k] = sortKeys(v[k] as JsonValue);
  return out;
}
