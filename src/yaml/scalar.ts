/**
 * How yaml.v2 (libyaml's emitter) chooses a scalar's style: plain when the text would read back as
 * the same string, double-quoted when it would read back as another type ("True", "124", ""),
 * single-quoted when plain is impossible ('*', 'a: b'), literal `|-` for multi-line text.
 */

export type ScalarStyle = "plain" | "single" | "double" | "literal";

const BOOL_OR_NULL = new Set(
  "y Y yes Yes YES n N no No NO true True TRUE false False FALSE on On ON off Off OFF ~ null Null NULL".split(
    " ",
  ),
);
const SPECIAL_FLOATS = new Set(
  ".inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF .nan .NaN .NAN".split(" "),
);
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const TIMESTAMP =
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(([Tt]| +)[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\.[0-9]*)?(Z|[-+][0-9]{1,2}(:[0-9]{2})?)?)?$/;

/** True when a plain scalar with this text would be read back as something other than this string. */
export function resolvesToNonString(s: string): boolean {
  if (s === "") return true;
  if (BOOL_OR_NULL.has(s) || SPECIAL_FLOATS.has(s)) return true;
  const c = s[0] as string;
  if (!(c === "+" || c === "-" || c === "." || (c >= "0" && c <= "9"))) return false;
  const plain = s.replaceAll("_", "");
  if (isGoInt(plain)) return true;
  if (YAML_FLOAT.test(plain)) return true;
  if (BASE60_FLOAT.test(s)) return true;
  return TIMESTAMP.test(s);
}

/** strconv.ParseInt(s, 0, 64) / ParseUint accept: decimal, 0x, 0o, 0b, leading-0 octal. */
function isGoInt(s: string): boolean {
  return /^[-+]?(0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[1-9][0-9]*|0)$/.test(s);
}

const SURROGATE = /[\ud800-\udfff]/;

/**
 * The characters of `s` as libyaml walks them (code points): `s` itself, indexed the same way, when it
 * holds no surrogate, else an array. An array of every scalar's characters was most of the YAML
 * writer's time.
 */
export function charactersOf(s: string): ArrayLike<string> & Iterable<string> {
  return SURROGATE.test(s) ? Array.from(s) : s;
}

export const isSpace = (c: string | undefined): boolean => c === " ";
export const isBreak = (c: string | undefined): boolean =>
  c === "\n" || c === "\r" || c === "\u0085" || c === "\u2028" || c === "\u2029";
const isBlankz = (c: string | undefined): boolean => c === undefined || c === " " || c === "\t" || isBreak(c);

/**
 * libyaml's is_printable, on the character's UTF-8 bytes: not NEL (0x85) and nothing beyond the BMP,
 * which yaml.v2 (and so controller-gen) writes double-quoted as `\N` and `\U0001F600`.
 */
export function isPrintable(c: string): boolean {
  const cp = c.codePointAt(0) ?? 0;
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff)
  );
}

interface Analysis {
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

/**
 * Text in which libyaml's analysis finds nothing: a letter, then letters, digits and `_ . / -` (most
 * keys and names of a CRD). Answered without the walk, which was the YAML writer's largest cost.
 */
const SIMPLE_TEXT = /^[A-Za-z][A-Za-z0-9_./-]*$/;
const SIMPLE: Analysis = {
  multiline: false,
  blockPlainAllowed: true,
  singleQuotedAllowed: true,
  blockAllowed: true,
};

/** libyaml's yaml_emitter_analyze_scalar, for block context (the only context we emit scalars in). */
function analyze(value: string): Analysis {
  if (SIMPLE_TEXT.test(value)) return SIMPLE;
  const chars = charactersOf(value);
  if (chars.length === 0) {
    return { multiline: false, blockPlainAllowed: false, singleQuotedAllowed: true, blockAllowed: false };
  }
  let blockIndicators = false;
  if (value.startsWith("---") || value.startsWith("...")) blockIndicators = true;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  let precededByWhitespace = true;
  let followedByWhitespace = isBlankz(chars[1]);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (i === 0) {
      if ("#,[]{}&*!|>'\"%@`".includes(c)) blockIndicators = true;
      if ((c === "?" || c === ":") && followedByWhitespace) blockIndicators = true;
      if (c === "-" && followedByWhitespace) blockIndicators = true;
    } else {
      if (c === ":" && followedByWhitespace) blockIndicators = true;
      if (c === "#" && precededByWhitespace) blockIndicators = true;
    }
    if (!isPrintable(c) || c === "\ufeff") special = true;
    if (isBreak(c)) lineBreaks = true;
    const last = i === chars.length - 1;
    if (isSpace(c)) {
      if (i === 0) leadingSpace = true;
      if (last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      if (i === 0) leadingBreak = true;
      if (last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousBreak = true;
      previousSpace = false;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankz(c);
    followedByWhitespace = isBlankz(chars[i + 2]);
  }
  let blockPlainAllowed = true;
  let singleQuotedAllowed = true;
  let blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlainAllowed = false;
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
  }
  if (spaceBreak || special) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
    blockAllowed = false;
  }
  if (lineBreaks) blockPlainAllowed = false;
  if (blockIndicators) blockPlainAllowed = false;
  return { multiline: lineBreaks, blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}

/** The style yaml.v2 uses for a string value (`simpleKey` for mapping keys). */
export function scalarStyle(value: string, simpleKey: boolean): ScalarStyle {
  let style: ScalarStyle;
  if (value.includes("\n")) style = "literal";
  else if (!resolvesToNonString(value)) style = "plain";
  else style = "double";
  const a = analyze(value);
  if (style === "plain") {
    if (!a.blockPlainAllowed || (value.length === 0 && simpleKey)) style = "single";
  }
  if (style === "single" && !a.singleQuotedAllowed) style = "double";
  if (style === "literal" && (!a.blockAllowed || simpleKey)) style = "double";
  return style;
}
