/**
 * A tokenizer with the behaviour of Go's text/scanner in the mode controller-tools uses for marker
 * arguments: identifiers, numbers, "strings" and `raw strings`; anything else is a one-character
 * token; whitespace is skipped.
 */
export type TokenKind = "ident" | "int" | "float" | "string" | "rawstring" | "char" | "eof";

export interface Token {
  kind: TokenKind;
  text: string;
  /** Offset of the token's first character in the scanned text. */
  offset: number;
}

const isIdentStart = (c: string): boolean => /[\p{L}_]/u.test(c);
const isIdentPart = (c: string): boolean => /[\p{L}\p{Nd}_]/u.test(c);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";

export class Scanner {
  private pos = 0;
  /** The last token returned by `scan`. */
  last: Token = { kind: "eof", text: "", offset: 0 };

  constructor(
    readonly text: string,
    /** Numbers are recognised (off while reading a bare string, as controller-tools does). */
    public numbers = true,
  ) {}

  private skipSpace(): void {
    while (this.pos < this.text.length && " \t\r\n".includes(this.text[this.pos] as string)) this.pos++;
  }

  /** The first character of the next token ("" at the end). */
  peek(): string {
    this.skipSpace();
    return this.text[this.pos] ?? "";
  }

  /** The offset where the next token starts. */
  offset(): number {
    this.skipSpace();
    return this.pos;
  }

  scan(): Token {
    this.skipSpace();
    const start = this.pos;
    const c = this.text[start];
    let kind: TokenKind;
    if (c === undefined) {
      kind = "eof";
    } else if (isIdentStart(c)) {
      while (this.pos < this.text.length && isIdentPart(this.text[this.pos] as string)) this.pos++;
      kind = "ident";
    } else if (this.numbers && (isDigit(c) || (c === "." && isDigit(this.text[start + 1])))) {
      kind = this.scanNumber();
    } else if (c === '"') {
      this.pos++;
      while (this.pos < this.text.length && this.text[this.pos] !== '"') {
        if (this.text[this.pos] === "\\") this.pos++;
        this.pos++;
      }
      this.pos++;
      kind = "string";
    } else if (c === "`") {
      this.pos++;
      while (this.pos < this.text.length && this.text[this.pos] !== "`") this.pos++;
      this.pos++;
      kind = "rawstring";
    } else {
      this.pos += c.length;
      kind = "char";
    }
    this.pos = Math.min(this.pos, this.text.length);
    this.last = { kind, text: this.text.slice(start, this.pos), offset: start };
    return this.last;
  }

  private scanNumber(): TokenKind {
    const t = this.text;
    let float = false;
    if (t[this.pos] === "0" && /[xXbBoO]/.test(t[this.pos + 1] ?? "")) {
      this.pos += 2;
      while (/[0-9a-fA-F_]/.test(t[this.pos] ?? "")) this.pos++;
      return "int";
    }
    while (isDigit(t[this.pos]) || t[this.pos] === "_") this.pos++;
    if (t[this.pos] === ".") {
      float = true;
      this.pos++;
      while (isDigit(t[this.pos]) || t[this.pos] === "_") this.pos++;
    }
    if (/[eE]/.test(t[this.pos] ?? "")) {
      const save = this.pos;
      this.pos++;
      if (/[-+]/.test(t[this.pos] ?? "")) this.pos++;
      if (isDigit(t[this.pos])) {
        float = true;
        while (isDigit(t[this.pos])) this.pos++;
      } else {
        this.pos = save;
      }
    }
    return float ? "float" : "int";
  }
}

/** Go's strconv.Unquote for "double-quoted" and `raw` strings. */
export function unquote(token: string): string {
  if (token.startsWith("`")) return token.slice(1, -1);
  return JSON.parse(
    token
      .replaceAll("\t", "\\t")
      .replace(/\\([abfnrtv'\\"]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3})/g, (m, esc) => {
        switch (esc[0]) {
          case "a":
            return "\\u0007";
          case "v":
            return "\\u000b";
          case "'":
            return "'";
          case "x":
            return `\\u00${esc.slice(1)}`;
          case "U":
            return String.fromCodePoint(Number.parseInt(esc.slice(1), 16));
          default:
            if (/^[0-7]{3}$/.test(esc)) return `\\u${Number.parseInt(esc, 8).toString(16).padStart(4, "0")}`;
            return m;
        }
      }),
  ) as string;
}
