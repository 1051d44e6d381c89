import type { JSONSchemaProps } from "@kbts/runtime";
import type { CustomResourceDefinition } from "../crd/types.js";
import type { ArgsShape, ArgValue } from "./args.js";

/** What a marker may describe: a package (any free comment), a type, or a property. */
export type Target = "package" | "type" | "field";

/** Where a marker was written. */
export interface MarkerLocation {
  file: string;
  line: number;
  col: number;
}

export const formatLocation = (l: MarkerLocation): string => `${l.file}:${l.line}:${l.col}`;

/** A schema marker's effect, applied by the schema walker without knowing the marker's name. */
export interface SchemaEffect<V> {
  /** Lower runs first (controller-tools: Type/XIntOrString/listType 9, default 10, oneOf 11-13). */
  priority?: number;
  /** `items:` variants: applied to the array's items, after every other marker. */
  items?: boolean;
  /** Throws an Error whose message says what was wrong (the caller adds the location). */
  apply(schema: JSONSchemaProps, value: V): void;
}

/** How a field marker decides requiredness; lower rank wins (controller-tools' switch order). */
export interface Requiredness {
  mode: "optional" | "required";
  rank: number;
}

export interface MarkerDefinition<V = unknown> {
  name: string;
  targets: readonly Target[];
  args: ArgsShape;
  help: string;
  /** Turns the parsed arguments into the marker's value (and validates them). */
  convert?: (args: ArgValue | Record<string, ArgValue> | undefined, text: string) => V;
  schema?: SchemaEffect<V>;
  requiredness?: Requiredness;
  /** The field's schema starts empty: no type introspection (Schemaless). */
  schemaless?: boolean;
  /** Package-level: every field in the package defaults to this mode. */
  packageDefault?: "optional";
  /** Field names the value refers to (ExactlyOneOf...): they may not be required. */
  oneOfFields?: (value: V) => string[];
  /** Field-level immutability: parent gets a rule when the field is optional (k8s:immutable). */
  immutable?: boolean;
  /** Type-level CRD effect on the root kind's CRD, for the version the type belongs to. */
  crd?: (crd: CustomResourceDefinition, version: string, value: V) => void;
}

/** Declares a marker; its value type is checked here and erased for the registry. */
export function defineMarker<V>(def: MarkerDefinition<V>): MarkerDefinition {
  return def as unknown as MarkerDefinition;
}

/** One marker as written on a node. */
export interface MarkerInstance<V = unknown> {
  def: MarkerDefinition<V>;
  value: V;
  text: string;
  loc: MarkerLocation;
}

/** The markers of one node, looked up by definition (never by name string). */
export class MarkerSet {
  constructor(readonly all: MarkerInstance[] = []) {}

  has(def: MarkerDefinition): boolean {
    return this.all.some((m) => m.def === def);
  }

  /** The first instance of a marker; `V` is the value type its definition declared. */
  get<V = unknown>(def: MarkerDefinition): MarkerInstance<V> | undefined {
    return this.all.find((m) => m.def === def) as MarkerInstance<V> | undefined;
  }

  list<V = unknown>(def: MarkerDefinition): MarkerInstance<V>[] {
    return this.all.filter((m) => m.def === def) as MarkerInstance<V>[];
  }
}

/** All definitions, indexed by target and name. */
export class Registry {
  private byTarget = new Map<Target, Map<string, MarkerDefinition>>();
  private names = new Set<string>();
  private ignoredPrefixes: string[] = [];

  add(...defs: MarkerDefinition[]): this {
    for (const d of defs) {
      for (const target of d.targets) {
        let m = this.byTarget.get(target);
        if (!m) {
          m = new Map();
          this.byTarget.set(target, m);
        }
        if (m.has(d.name)) throw new Error(`marker ${d.name} registered twice for ${target}`);
        m.set(d.name, d);
      }
      this.names.add(d.name);
    }
    return this;
  }

  /** Markers of other generators that kbts accepts and ignores (no warning). */
  ignore(...prefixes: string[]): this {
    this.ignoredPrefixes.push(...prefixes);
    return this;
  }

  isIgnored(name: string): boolean {
    return this.ignoredPrefixes.some(
      (p) => name === p || name.startsWith(`${p}:`) || name.startsWith(`${p}=`),
    );
  }

  /** controller-tools' lookup: the full name before `=`, else without its last `:segment`. */
  lookup(target: Target, full: string): { def: MarkerDefinition; viaPrefix: boolean } | undefined {
    const m = this.byTarget.get(target);
    const exact = m?.get(full);
    if (exact) return { def: exact, viaPrefix: false };
    const cut = full.lastIndexOf(":");
    if (cut > 0) {
      const d = m?.get(full.slice(0, cut));
      if (d && d.args.kind === "fields") return { def: d, viaPrefix: true };
    }
    return undefined;
  }

  /** The targets a name is defined for (for "does not apply to a field" messages). */
  targetsOf(full: string): Target[] {
    const out: Target[] = [];
    for (const [target, m] of this.byTarget) {
      const cut = full.lastIndexOf(":");
      if (m.has(full) || (cut > 0 && m.get(full.slice(0, cut))?.args.kind === "fields")) out.push(target);
    }
    return out;
  }

  /** The known name closest to `name` (Levenshtein), for "did you mean" warnings. */
  closest(name: string): string | undefined {
    let best: string | undefined;
    let bestD = Number.POSITIVE_INFINITY;
    for (const n of this.names) {
      const d = editDistance(name.toLowerCase(), n.toLowerCase());
      if (d < bestD) {
        bestD = d;
        best = n;
      }
    }
    return best !== undefined && bestD <= Math.max(3, Math.floor(name.length / 3)) ? best : undefined;
  }

  definitions(): MarkerDefinition[] {
    const seen = new Set<MarkerDefinition>();
    for (const m of this.byTarget.values()) for (const d of m.values()) seen.add(d);
    return [...seen];
  }
}

export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[b.length] as number;
}
