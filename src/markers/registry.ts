import type { JSONSchemaProps, ValidationRule } from "@kbts/runtime";
import { compareStrings } from "../compare.js";
import type { ArgsShape, ArgValue } from "./args.js";
import { closest } from "./spelling.js";

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
  /**
   * Every instance counts, each adding to the result (a rule, a list-map key, a column, a permission),
   * as controller-gen applies each value of these markers. Any other marker given twice on one node
   * with different values is refused: only one could win. The one definition `--list-markers` and the
   * collector both read.
   */
  repeatable?: boolean;
  /** Turns the parsed arguments into the marker's value (and validates them). */
  convert?(args: ArgValue | Record<string, ArgValue> | undefined, text: string): V;
  schema?: SchemaEffect<V>;
  requiredness?: Requiredness;
  /**
   * A `#` in the argument starts a comment (`+k8s:maxItems=3 # at most three`), as gengo's codetags
   * read Kubernetes' declarative validation tags; controller-tools strips it for exactly these markers.
   */
  hashComments?: boolean;
  /** The field's schema starts empty: no type introspection (Schemaless). */
  schemaless?: boolean;
  /**
   * What a package-level marker does to its whole package, in words: said in a warning when the
   * marker is read as package-level from the marker block above a type, as controller-gen reads it.
   */
  packageEffect?: string;
  /** Package-level: every field in the package defaults to this mode. */
  packageDefault?: "optional";
  /** Field names the value refers to (ExactlyOneOf...): they may not be required. */
  oneOfFields?(value: V): string[];
  /** The marker says the schema's type itself (+kubebuilder:validation:Type): a JSONMarshaler type is then opaque. */
  setsType?: boolean;
  /** A field of type any/unknown/object is accepted with this marker (its unknown fields are kept). */
  keepsUnknownFields?: boolean;
  /** The rule the parent object gets for a field carrying this marker when the field is optional (k8s:immutable). */
  parentRule?(field: string): ValidationRule;
  /**
   * Checks beyond controller-gen, against the finished schema of the node the marker is on (for a
   * root kind's type markers, the version's whole schema): what is wrong, reported at the marker.
   */
  check?(value: V, node: CheckedNode): MarkerProblem[];
}

/** The schema node a marker's check meets, and where it sits. */
export interface CheckedNode {
  schema: JSONSchemaProps;
  /** The type or field path the marker is on, e.g. "GPUBudget.spec". */
  owner: string;
  /** The node is the version's whole schema (CEL `self` is the object). */
  isRoot: boolean;
}

/** Something a marker's check found wrong; the caller adds the marker's location. */
export interface MarkerProblem {
  message: string;
  fix?: string;
}

/**
 * Declares a marker. Members that take the value are methods, so a definition of any value type is
 * a MarkerDefinition, and lookups by definition give the value type back (MarkerSet.get).
 */
export function defineMarker<V>(def: MarkerDefinition<V>): MarkerDefinition<V> {
  return def;
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

  /** The first instance of a marker, with the value type its definition declared. */
  get<V>(def: MarkerDefinition<V>): MarkerInstance<V> | undefined {
    return instancesOf(this.all, def)[0];
  }

  list<V>(def: MarkerDefinition<V>): MarkerInstance<V>[] {
    return instancesOf(this.all, def);
  }
}

/** The instances of one definition, typed by it (an instance's value is what its definition made). */
export function instancesOf<V>(
  markers: readonly MarkerInstance[],
  def: MarkerDefinition<V>,
): MarkerInstance<V>[] {
  return markers.filter((m): m is MarkerInstance<V> => m.def === def);
}

/** All definitions, indexed by target and name. */
export class Registry {
  private byTarget = new Map<Target, Map<string, MarkerDefinition>>();
  private names = new Set<string>();
  private ignoredPrefixes = new Set<string>();

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
    for (const p of prefixes) this.ignoredPrefixes.add(p);
    return this;
  }

  /** Whether the name is an ignored prefix, or one followed by `:` or `=` (asked of every marker). */
  isIgnored(name: string): boolean {
    if (this.ignoredPrefixes.has(name)) return true;
    for (let i = name.indexOf(":"); i > 0; i = name.indexOf(":", i + 1))
      if (this.ignoredPrefixes.has(name.slice(0, i))) return true;
    const eq = name.indexOf("=");
    return eq > 0 && this.ignoredPrefixes.has(name.slice(0, eq));
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

  /**
   * The known name closest to `name`, for "did you mean" warnings: the same name in other case; else
   * a marker named like its last segment (`+kubebuilder:validation:nullable` is `+nullable`, not the
   * equally long `...:MultipleOf`); else the nearest by edit distance.
   */
  closest(name: string): string | undefined {
    const lower = name.toLowerCase();
    const names = [...this.names];
    const same = names.find((n) => n.toLowerCase() === lower);
    if (same) return same;
    const last = lower.slice(lower.lastIndexOf(":") + 1);
    if (last !== lower) {
      const bySegment = names
        .filter((n) => n.toLowerCase() === last || n.toLowerCase().endsWith(`:${last}`))
        .sort((a, b) => a.length - b.length || compareStrings(a, b));
      if (bySegment[0]) return bySegment[0];
    }
    return closest(name, this.names, {
      within: (n) => Math.max(3, Math.floor(n.length / 3)),
      ignoreCase: true,
    });
  }

  definitions(): MarkerDefinition[] {
    const seen = new Set<MarkerDefinition>();
    for (const m of this.byTarget.values()) for (const d of m.values()) seen.add(d);
    return [...seen];
  }
}
