import { Scanner, unquote } from "./scanner.js";

/**
 * The shape of a marker's arguments, and the one generic parser that reads any marker from it
 * (controller-tools' syntax: `+name=value`, `+name:key=value,key2=value2`, lists as `a;b` or
 * `{a,b}`, maps as `{k: v}`, "quoted", `raw` or bare strings).
 */
export type ArgType =
  | { kind: "string" }
  | { kind: "int" }
  | { kind: "number" }
  | { kind: "bool" }
  /** Guessed from the text, as controller-tools' `interface{}` arguments. */
  | { kind: "any" }
  /** Everything after `=`, unparsed. */
  | { kind: "raw" }
  | { kind: "slice"; item: ArgType }
  | { kind: "map"; item: ArgType };

export const t = {
  string: { kind: "string" } as ArgType,
  int: { kind: "int" } as ArgType,
  number: { kind: "number" } as ArgType,
  bool: { kind: "bool" } as ArgType,
  any: { kind: "any" } as ArgType,
  raw: { kind: "raw" } as ArgType,
  strings: { kind: "slice", item: { kind: "string" } } as ArgType,
  anys: { kind: "slice", item: { kind: "any" } } as ArgType,
};

export interface FieldArg {
  type: ArgType;
  optional?: boolean;
}

/** No arguments (`+kubebuilder:subresource:status`), one anonymous value (`+x=1`), or named fields. */
export type ArgsShape =
  | { kind: "none" }
  | { kind: "value"; type: ArgType; optional?: boolean }
  | { kind: "fields"; fields: Record<string, FieldArg> };

export type ArgValue = string | number | boolean | null | ArgValue[] | { [key: string]: ArgValue };

/** A parse failure at `offset` within the argument text. */
export class ArgError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

export function describeType(type: ArgType): string {
  switch (type.kind) {
    case "slice":
      return `a list of ${describeType(type.item)} (a;b or {a,b})`;
    case "map":
      return "a map ({key: value})";
    case "any":
      return "a value";
    case "raw":
      return "a value";
    case "int":
      return "an integer";
    case "number":
      return "a number";
    case "bool":
      return "true or false";
    case "string":
      return "a string";
  }
}

/**
 * Parses the argument text of a marker with the given shape. `text` is what follows the marker name:
 * for value markers the part after `=`, for field markers `key=value,...`.
 */
export function parseArgs(shape: ArgsShape, text: string): ArgValue | Record<string, ArgValue> | undefined {
  const s = new Scanner(text);
  if (shape.kind === "none") {
    if (s.peek() !== "") throw new ArgError(`takes no arguments, got ${JSON.stringify(text)}`, s.offset());
    return undefined;
  }
  if (shape.kind === "value") {
    if (s.peek() === "") {
      if (shape.optional) return undefined;
      throw new ArgError(`expected ${describeType(shape.type)} after "="`, 0);
    }
    if (shape.type.kind === "raw") return text;
    const v = parseValue(s, text, shape.type, false);
    expectEnd(s, text);
    return v;
  }
  const out: Record<string, ArgValue> = {};
  if (s.peek() !== "") {
    for (;;) {
      const name = s.scan();
      if (name.kind !== "ident")
        throw new ArgError(`expected an argument name, got ${JSON.stringify(name.text)}`, name.offset);
      const eq = s.scan();
      if (eq.text !== "=") throw new ArgError(`expected "=" after ${name.text}`, eq.offset);
      const field = shape.fields[name.text];
      if (!field) {
        const known = Object.keys(shape.fields).join(", ");
        throw new ArgError(`unknown argument ${JSON.stringify(name.text)} (known: ${known})`, name.offset);
      }
      out[name.text] = parseValue(s, text, field.type, false);
      if (s.peek() === "") break;
      const comma = s.scan();
      if (comma.text !== ",")
        throw new ArgError(`expected "," between arguments, got ${JSON.stringify(comma.text)}`, comma.offset);
    }
  }
  expectEnd(s, text);
  for (const [name, field] of Object.entries(shape.fields)) {
    if (!field.optional && !(name in out))
      throw new ArgError(`missing argument ${JSON.stringify(name)}`, text.length);
  }
  return out;
}

function expectEnd(s: Scanner, text: string): void {
  const tok = s.scan();
  if (tok.kind !== "eof")
    throw new ArgError(`extra arguments provided: ${JSON.stringify(text.slice(tok.offset))}`, tok.offset);
}

function parseValue(s: Scanner, raw: string, type: ArgType, inSlice: boolean): ArgValue {
  switch (type.kind) {
    case "raw":
      throw new ArgError("raw arguments must be the whole marker value", s.offset());
    case "string":
      return parseString(s, raw, false);
    case "bool": {
      const tok = s.scan();
      if (tok.text === "true") return true;
      if (tok.text === "false") return false;
      throw new ArgError(`expected true or false, got ${JSON.stringify(tok.text)}`, tok.offset);
    }
    case "int":
    case "number": {
      let neg = false;
      if (s.peek() === "-") {
        s.scan();
        neg = true;
      }
      const tok = s.scan();
      if (tok.kind !== "int" && !(type.kind === "number" && tok.kind === "float")) {
        throw new ArgError(`expected ${describeType(type)}, got ${JSON.stringify(tok.text)}`, tok.offset);
      }
      const n = Number(tok.text.replaceAll("_", ""));
      return neg ? -n : n;
    }
    case "slice":
      return parseSlice(s, raw, type.item);
    case "map":
      return parseMap(s, raw, type.item);
    case "any":
      return parseValue(s, raw, guessType(s, raw, !inSlice), inSlice);
  }
}

/** A quoted string, or the raw text of the bare tokens up to `,` `;` `}` (and `:` inside maps). */
function parseString(s: Scanner, raw: string, inMap: boolean): string {
  s.numbers = false;
  try {
    const first = s.scan();
    if (first.kind === "string" || first.kind === "rawstring") {
      try {
        return unquote(first.text);
      } catch {
        throw new ArgError(`unable to parse string ${first.text}`, first.offset);
      }
    }
    const isDelim = (c: string) => c === "," || c === ";" || c === "}" || c === "" || (inMap && c === ":");
    if (first.kind === "eof") return "";
    let end = first.offset + first.text.length;
    while (!isDelim(s.peek())) {
      const tok = s.scan();
      end = tok.offset + tok.text.length;
    }
    return raw.slice(first.offset, end);
  } finally {
    s.numbers = true;
  }
}

function parseSlice(s: Scanner, raw: string, item: ArgType): ArgValue[] {
  const out: ArgValue[] = [];
  if (s.peek() === "{") {
    s.scan();
    while (s.peek() !== "}" && s.peek() !== "") {
      out.push(parseValue(s, raw, item, true));
      if (s.peek() === "}") break;
      const comma = s.scan();
      if (comma.text !== ",")
        throw new ArgError(`expected "," in list, got ${JSON.stringify(comma.text)}`, comma.offset);
    }
    const close = s.scan();
    if (close.text !== "}") throw new ArgError(`expected "}" to close the list`, close.offset);
    return out;
  }
  while (s.peek() !== "," && s.peek() !== "}" && s.peek() !== "") {
    out.push(parseValue(s, raw, item, true));
    const next = s.peek();
    if (next === "," || next === "}" || next === "") break;
    const sep = s.scan();
    if (sep.text !== ";")
      throw new ArgError(`expected ";" between list items, got ${JSON.stringify(sep.text)}`, sep.offset);
  }
  return out;
}

function parseMap(s: Scanner, raw: string, item: ArgType): { [key: string]: ArgValue } {
  const out: { [key: string]: ArgValue } = {};
  const open = s.scan();
  if (open.text !== "{") throw new ArgError(`expected "{" to open a map`, open.offset);
  while (s.peek() !== "}" && s.peek() !== "") {
    const key = parseString(s, raw, true);
    const colon = s.scan();
    if (colon.text !== ":")
      throw new ArgError(`expected ":" after map key ${JSON.stringify(key)}`, colon.offset);
    out[key] = parseValue(s, raw, item, false);
    if (s.peek() === "}") break;
    const comma = s.scan();
    if (comma.text !== ",")
      throw new ArgError(`expected "," in map, got ${JSON.stringify(comma.text)}`, comma.offset);
  }
  const close = s.scan();
  if (close.text !== "}") throw new ArgError(`expected "}" to close the map`, close.offset);
  return out;
}

/** controller-tools' guessType: what an untyped argument (Enum, default, example) most looks like. */
function guessType(s: Scanner, raw: string, allowSlice: boolean): ArgType {
  const start = s.offset();
  if (allowSlice) {
    const item = guessType(s, raw, false);
    const ahead = new Scanner(raw.slice(start));
    for (;;) {
      const tok = ahead.scan();
      if (tok.text === ";") return { kind: "slice", item };
      if (tok.text === "," || tok.kind === "eof") return item;
    }
  }
  const sub = new Scanner(raw.slice(start));
  const hint = sub.peek();
  if (hint === '"' || hint === "'" || hint === "`") return t.string;
  if (hint === "{") {
    sub.scan();
    const inner = sub.peek();
    const first = guessType(sub, raw.slice(start), false);
    if (first.kind === "string") {
      parseString(sub, raw.slice(start), true);
      const next = sub.scan();
      if (next.text === ":" || inner === "}") return { kind: "map", item: t.any };
    }
    return { kind: "slice", item: first };
  }
  if (hint === "t" || hint === "f") {
    const tok = sub.scan();
    if (tok.kind === "ident" && (tok.text === "true" || tok.text === "false")) return t.bool;
    return t.string;
  }
  let tok = sub.scan();
  if (tok.text === "-") tok = sub.scan();
  if (tok.kind === "int" || tok.kind === "float") {
    const follow = sub.peek();
    if (follow === "," || follow === ";" || follow === "" || follow === "}")
      return tok.kind === "int" ? t.int : t.number;
  }
  return t.string;
}
