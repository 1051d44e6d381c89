import { FLECT } from "./flect-data.js";

/**
 * `strings.ToLower(flect.Pluralize(kind))`, the plural controller-gen gives a kind: flect's dictionary
 * and suffix rules (data extracted from gobuffalo/flect v1.0.3 into flect-data.ts).
 */
interface Word {
  s: string;
  p: string;
  a: string;
  u: boolean;
  c: boolean;
  e: boolean;
}

interface Rules {
  singleToPlural: Map<string, string>;
  pluralToSingle: Set<string>;
  /** [suffix, replacement or null for "already plural"], highest priority first. */
  rules: [string, string | null][];
}

let cache: Rules | undefined;

function rules(): Rules {
  if (cache) return cache;
  const data = FLECT as unknown as { dictionary: Word[]; suffixes: [string, string][] };
  const singleToPlural = new Map<string, string>();
  const pluralToSingle = new Set<string>();
  for (const w of data.dictionary) {
    const plural = w.c && !w.p ? w.s : w.p;
    singleToPlural.set(w.s, plural);
    if (!w.u) {
      pluralToSingle.add(plural);
      if (w.a) pluralToSingle.add(w.a);
    }
  }
  // flect prepends each rule (and a no-op for its plural form): later insertions win.
  let list: [string, string | null][] = [];
  const insert = (suffix: string, repl: string) => {
    list = [[repl, null], [suffix, repl], ...list];
  };
  for (let i = data.suffixes.length - 1; i >= 0; i--) {
    const [s, p] = data.suffixes[i] as [string, string];
    insert(s, p);
  }
  for (const w of data.dictionary) {
    if (w.e) continue;
    insert(w.s, w.c && !w.p ? w.s : w.p);
  }
  cache = { singleToPlural, pluralToSingle, rules: list };
  return cache;
}

export function pluralize(kind: string): string {
  const s = kind.toLowerCase();
  if (s === "") return s;
  const r = rules();
  const direct = r.singleToPlural.get(s);
  if (direct !== undefined) return direct;
  if (r.pluralToSingle.has(s)) return s;
  // flect matches suffix rules case-sensitively on the word as written ("S" → "Ses" is for acronyms).
  for (const [suffix, repl] of r.rules) {
    if (kind.endsWith(suffix))
      return repl === null ? s : (kind.slice(0, kind.length - suffix.length) + repl).toLowerCase();
  }
  if (s.endsWith("s")) return s;
  return `${s}s`;
}
