/**
 * Label selectors in their three forms (a selector string, a label map, a metav1.LabelSelector),
 * normalised to one list of requirements, so the API server (which takes the string) and the
 * informer cache (which matches in memory) agree on what a selector means.
 */
import type { LabelSelector } from "../api/meta.js";
import { compareStrings } from "../internal/compare.js";

export type SelectorOperator = "=" | "!=" | "in" | "notin" | "exists" | "!" | "gt" | "lt";

export interface Requirement {
  key: string;
  operator: SelectorOperator;
  values: string[];
}

/** A parsed selector; `requirements` empty means "everything". */
export interface Selector {
  requirements: Requirement[];
  /** A selector that matches nothing (a nil metav1.LabelSelector in a context that wants one). */
  nothing?: boolean;
}

export type LabelSelectorInput = string | Record<string, string> | LabelSelector;

/** Normalises any of the three selector forms. Throws on malformed input, naming the selector. */
export function parseSelector(input: LabelSelectorInput | undefined): Selector {
  if (input === undefined) return { requirements: [] };
  if (typeof input === "string") return { requirements: parseSelectorString(input) };
  if (isLabelSelector(input)) return fromLabelSelector(input);
  return {
    requirements: Object.entries(input)
      .sort(([a], [b]) => compareStrings(a, b))
      .map(([key, value]) => {
        validateKey(key, JSON.stringify(input));
        return { key, operator: "=" as const, values: [value] };
      }),
  };
}

function isLabelSelector(input: object): input is LabelSelector {
  const keys = Object.keys(input);
  if (keys.length === 0) return false;
  return (
    keys.every((k) => k === "matchLabels" || k === "matchExpressions") &&
    Object.values(input).every((v) => v === undefined || typeof v === "object")
  );
}

function fromLabelSelector(sel: LabelSelector): Selector {
  const where = JSON.stringify(sel);
  const reqs: Requirement[] = [];
  for (const [key, value] of Object.entries(sel.matchLabels ?? {})) {
    validateKey(key, where);
    reqs.push({ key, operator: "=", values: [value] });
  }
  for (const expr of sel.matchExpressions ?? []) {
    validateKey(expr.key, where);
    const values = expr.values ?? [];
    switch (expr.operator) {
      case "In":
      case "NotIn":
        if (values.length === 0) {
          throw new Error(
            `invalid label selector ${where}: operator ${expr.operator} on "${expr.key}" needs at least one value`,
          );
        }
        reqs.push({ key: expr.key, operator: expr.operator === "In" ? "in" : "notin", values: [...values] });
        break;
      case "Exists":
      case "DoesNotExist":
        if (values.length > 0) {
          throw new Error(
            `invalid label selector ${where}: operator ${expr.operator} on "${expr.key}" takes no values`,
          );
        }
        reqs.push({ key: expr.key, operator: expr.operator === "Exists" ? "exists" : "!", values: [] });
        break;
      default:
        throw new Error(
          `invalid label selector ${where}: unknown operator "${String(expr.operator)}" (use In, NotIn, Exists or DoesNotExist)`,
        );
    }
  }
  reqs.sort((a, b) => compareStrings(a.key, b.key));
  return { requirements: reqs };
}

// A label key: optional DNS-subdomain prefix and "/", then a name of [A-Za-z0-9_.-], alphanumeric at both ends.
const NAME = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)$/;
const PREFIX = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function validateKey(key: string, where: string): void {
  const slash = key.lastIndexOf("/");
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  const ok = NAME.test(name) && (prefix === undefined || (prefix.length <= 253 && PREFIX.test(prefix)));
  if (!ok) {
    throw new Error(
      `invalid label selector ${where}: "${key}" is not a valid label key (an optional DNS prefix and "/", then up to 63 of [A-Za-z0-9_.-], alphanumeric at both ends)`,
    );
  }
}

/**
 * Parses the API server's selector syntax: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`,
 * `a` (exists), `!a` (does not exist), `a>1`, `a<1`, joined by commas.
 */
export function parseSelectorString(text: string): Requirement[] {
  const reqs: Requirement[] = [];
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`invalid label selector "${text}" at column ${i + 1}: ${what}`);
  };
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const readWord = (): string => {
    const start = i;
    while (i < text.length && !/[\s,=!<>()]/.test(text[i]!)) i++;
    return text.slice(start, i);
  };
  skipSpace();
  if (i === text.length) return [];
  for (;;) {
    skipSpace();
    let negate = false;
    if (text[i] === "!") {
      negate = true;
      i++;
      skipSpace();
    }
    const key = readWord();
    if (!key) fail("expected a label key");
    validateKey(key, JSON.stringify(text));
    skipSpace();
    if (negate) {
      reqs.push({ key, operator: "!", values: [] });
    } else if (i === text.length || text[i] === ",") {
      reqs.push({ key, operator: "exists", values: [] });
    } else if (text.startsWith("==", i) || text[i] === "=" || text.startsWith("!=", i)) {
      const operator = text.startsWith("!=", i) ? "!=" : "=";
      i += text.startsWith("==", i) || operator === "!=" ? 2 : 1;
      skipSpace();
      const value = readWord();
      validateValue(value, text);
      reqs.push({ key, operator, values: [value] });
    } else if (text[i] === ">" || text[i] === "<") {
      const operator = text[i] === ">" ? "gt" : "lt";
      i++;
      skipSpace();
      const value = readWord();
      if (!/^-?\d+$/.test(value)) fail(`"${key}${operator === "gt" ? ">" : "<"}" needs an integer`);
      reqs.push({ key, operator, values: [value] });
    } else {
      const word = readWord();
      if (word !== "in" && word !== "notin") fail(`expected =, ==, !=, in, notin, > or < after "${key}"`);
      skipSpace();
      if (text[i] !== "(") fail(`expected "(" after "${word}"`);
      i++;
      const values: string[] = [];
      for (;;) {
        skipSpace();
        const value = readWord();
        validateValue(value, text);
        values.push(value);
        skipSpace();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === ")") {
          i++;
          break;
        }
        fail('expected "," or ")" in a value list');
      }
      reqs.push({ key, operator: word as "in" | "notin", values });
    }
    skipSpace();
    if (i === text.length) break;
    if (text[i] !== ",") fail('expected "," between requirements');
    i++;
  }
  return reqs;
}

function validateValue(value: string, text: string): void {
  if (value !== "" && !NAME.test(value)) {
    throw new Error(
      `invalid label selector "${text}": "${value}" is not a valid label value (up to 63 of [A-Za-z0-9_.-], alphanumeric at both ends)`,
    );
  }
}

/** True when the labels satisfy every requirement. */
export function matchesSelector(selector: Selector, labels: Record<string, string> | undefined): boolean {
  if (selector.nothing) return false;
  const l = labels ?? {};
  for (const r of selector.requirements) {
    const has = Object.hasOwn(l, r.key);
    const v = l[r.key];
    switch (r.operator) {
      case "=":
      case "in":
        if (!has || !r.values.includes(v!)) return false;
        break;
      case "!=":
      case "notin":
        if (has && r.values.includes(v!)) return false;
        break;
      case "exists":
        if (!has) return false;
        break;
      case "!":
        if (has) return false;
        break;
      case "gt":
      case "lt": {
        if (!has || !/^-?\d+$/.test(v!)) return false;
        const n = Number(v);
        const bound = Number(r.values[0]);
        if (r.operator === "gt" ? !(n > bound) : !(n < bound)) return false;
        break;
      }
    }
  }
  return true;
}

/** Convenience: does this object's label map match any of the three selector forms? */
export function matchesLabels(
  input: LabelSelectorInput | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  return matchesSelector(parseSelector(input), labels);
}

/** The canonical string form the API server accepts (`labelSelector=` query parameter). */
export function selectorToString(selector: Selector): string {
  return selector.requirements
    .map((r) => {
      switch (r.operator) {
        case "=":
          return `${r.key}=${r.values[0]}`;
        case "!=":
          return `${r.key}!=${r.values[0]}`;
        case "in":
        case "notin":
          return `${r.key} ${r.operator} (${r.values.join(",")})`;
        case "exists":
          return r.key;
        case "!":
          return `!${r.key}`;
        case "gt":
          return `${r.key}>${r.values[0]}`;
        case "lt":
          return `${r.key}<${r.values[0]}`;
      }
      return "";
    })
    .join(",");
}

/** Exact-match field requirements (`matchingFields`, or a `key=value,key2==value2` field selector). */
export function parseFieldSelector(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (text.trim() === "") return out;
  for (const part of text.split(",")) {
    const m = /^\s*([^=!\s]+)\s*(==|=)\s*([^,]*?)\s*$/.exec(part);
    if (!m) {
      throw new Error(
        `invalid field selector "${text}": "${part}" is not an exact match (key=value); the cache serves exact matches on indexed fields only`,
      );
    }
    out[m[1]!] = m[3]!;
  }
  return out;
}
