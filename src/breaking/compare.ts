import type { JSONSchemaProps } from "@kbts/runtime";
import { compareStrings } from "../compare.js";
import { resource, storageVersion, unservedVersion } from "../crd/markers/crd.js";
import type { CrdVersion, CustomResourceDefinition } from "../crd/types.js";
import { formatLocation, type MarkerDefinition, type MarkerInstance } from "../markers/registry.js";
import { breakingAccept, storageMigration } from "./markers.js";

/**
 * The breaking-change gate's comparator: the CRDs generated at a base ref against today's, walked
 * together over their structural schemas. A change breaks when an object or a client that worked
 * against the base no longer does: something it used is gone or typed differently, or a value it
 * sent is now refused. Loosening (an optional field, a wider enum or bound, a new version) is fine.
 */
export type BreakKind =
  | "removed-kind"
  | "removed-version"
  | "removed-field"
  | "type"
  | "required"
  | "enum"
  | "bounds"
  | "pattern"
  | "format"
  | "cel"
  | "unserved"
  | "storage"
  | "list-type"
  | "map-type"
  | "scope";

export interface BreakingChange {
  kind: BreakKind;
  /** The CRD's name (plural.group). */
  crd: string;
  /** The version, for every change but a removed kind. */
  version?: string;
  /** The field path in the version's schema (".spec.items[*].name"); "" for the version or CRD itself. */
  path: string;
  message: string;
  /** Where in today's source: the marker that made the change (or the declaration), file:line:col. */
  where?: string;
  /** The marker that made the change, as written (`+kubebuilder:validation:Maximum=5`). */
  marker?: string;
  /** The reason of the `+kbts:breaking:accept` that accepts it: then it does not fail the gate. */
  accepted?: { reason: string; where: string };
}

/** A change that could look breaking and is not, with why (a transition rule, ratcheting, a migration note). */
export interface SafeChange {
  crd: string;
  version: string;
  path: string;
  message: string;
  where?: string;
}

export interface BreakingReport {
  changes: BreakingChange[];
  safe: SafeChange[];
}

/** Today's markers and declarations at one schema node of one version. */
export interface SchemaSite {
  markers: MarkerInstance[];
  /** The property declaration, file:line:col. */
  field?: string;
  /** The declaration of the node's named type (interface or alias), file:line:col. */
  type?: string;
}

export type SchemaSites = Map<string, SchemaSite>;

export const siteKey = (crd: string, version: string, path: string): string => `${crd} ${version} ${path}`;

const LOWER_BOUNDS = ["minimum", "minLength", "minItems", "minProperties"] as const;
const UPPER_BOUNDS = ["maximum", "maxLength", "maxItems", "maxProperties"] as const;
const SCALARS = new Set(["string", "integer", "number", "boolean"]);
/** Merge semantics and what an absent keyword means. */
const TOPOLOGY = [
  { type: "array", key: "x-kubernetes-list-type", absent: "atomic", kind: "list-type", what: "list" },
  { type: "object", key: "x-kubernetes-map-type", absent: "granular", kind: "map-type", what: "object" },
] as const;

/** Compares the CRDs at the base (before) with today's (after); `sites` locates today's markers. */
export function compareCrds(
  before: readonly CustomResourceDefinition[],
  after: readonly CustomResourceDefinition[],
  sites: SchemaSites,
): BreakingReport {
  const c = new Comparison(sites);
  const today = new Map(after.map((crd) => [crd.metadata.name, crd]));
  for (const old of [...before].sort((a, b) => compareStrings(a.metadata.name, b.metadata.name))) {
    const now = today.get(old.metadata.name);
    if (!now) {
      c.change({
        kind: "removed-kind",
        crd: old.metadata.name,
        path: "",
        message: `the CRD (kind ${old.spec.names.kind}) was removed, with its versions ${old.spec.versions.map((v) => v.name).join(", ")}`,
      });
      continue;
    }
    c.crd(old, now);
  }
  return c.report();
}

class Comparison {
  private readonly changes: BreakingChange[] = [];
  private readonly safe: SafeChange[] = [];

  constructor(private readonly sites: SchemaSites) {}

  report(): BreakingReport {
    return { changes: this.changes, safe: this.safe };
  }

  change(c: BreakingChange, acceptAt: SchemaSite[] = []): void {
    const accept = acceptAt.flatMap((s) => s.markers).find((m) => m.def === breakingAccept);
    if (accept) c.accepted = { reason: accept.value as string, where: formatLocation(accept.loc) };
    this.changes.push(c);
  }

  private site(crd: string, version: string, path: string): SchemaSite | undefined {
    return this.sites.get(siteKey(crd, version, path));
  }

  /** The root type's sites of every version of a CRD today: where its CRD-level markers stand. */
  private roots(crd: CustomResourceDefinition): SchemaSite[] {
    return crd.spec.versions.flatMap((v) => this.site(crd.metadata.name, v.name, "") ?? []);
  }

  private crdMarker(sites: SchemaSite[], def: MarkerDefinition): MarkerInstance | undefined {
    return sites.flatMap((s) => s.markers).find((m) => m.def === def);
  }

  crd(old: CustomResourceDefinition, now: CustomResourceDefinition): void {
    const name = now.metadata.name;
    const roots = this.roots(now);
    if (old.spec.scope !== now.spec.scope) {
      const m = this.crdMarker(roots, resource);
      this.change(
        {
          kind: "scope",
          crd: name,
          version: now.spec.versions.find((v) => v.storage)?.name ?? "",
          path: "",
          message: `scope changed from ${old.spec.scope} to ${now.spec.scope}: every existing object's URL and identity change`,
          ...located(m, roots[0]?.type),
        },
        roots,
      );
    }
    const versions = new Map(now.spec.versions.map((v) => [v.name, v]));
    for (const ov of old.spec.versions) {
      const nv = versions.get(ov.name);
      if (!nv) {
        this.change(
          {
            kind: "removed-version",
            crd: name,
            version: ov.name,
            path: "",
            message: `version ${ov.name} was removed: clients of ${ov.name} fail${ov.storage ? ", and objects stored in it can no longer be read" : ""}`,
          },
          roots,
        );
        continue;
      }
      const root = this.site(name, nv.name, "");
      if (ov.served && !nv.served) {
        this.change(
          {
            kind: "unserved",
            crd: name,
            version: nv.name,
            path: "",
            message: `version ${nv.name} is no longer served: its clients fail`,
            ...located(this.crdMarker(root ? [root] : [], unservedVersion), root?.type),
          },
          roots,
        );
      }
      this.schema(ov.schema.openAPIV3Schema, nv.schema.openAPIV3Schema, {
        crd: name,
        version: nv.name,
        path: "",
        correlatable: true,
      });
    }
    this.storage(old, now, roots);
  }

  private storage(old: CustomResourceDefinition, now: CustomResourceDefinition, roots: SchemaSite[]): void {
    const storageOf = (crd: CustomResourceDefinition): CrdVersion | undefined =>
      crd.spec.versions.find((v) => v.storage);
    const was = storageOf(old)?.name;
    const is = storageOf(now)?.name;
    if (was === undefined || is === undefined || was === is) return;
    const name = now.metadata.name;
    const root = this.site(name, is, "");
    const note = root?.markers.find((m) => m.def === storageMigration);
    if (note) {
      this.safe.push({
        crd: name,
        version: is,
        path: "",
        message: `storage version changed from ${was} to ${is}; migration: ${note.value as string}`,
        where: formatLocation(note.loc),
      });
      return;
    }
    this.change(
      {
        kind: "storage",
        crd: name,
        version: is,
        path: "",
        message: `storage version changed from ${was} to ${is} without a migration note: objects stored as ${was} stay so until rewritten, and ${was} cannot be dropped until then`,
        ...located(this.crdMarker(root ? [root] : [], storageVersion), root?.type),
      },
      roots,
    );
  }

  /** One schema node at the base and today, then its children. */
  private schema(b: JSONSchemaProps, a: JSONSchemaProps, at: Place): void {
    const site = this.site(at.crd, at.version, at.path);
    const report: Report = (kind, message, cause, decl, path = at.path) =>
      this.change(
        {
          kind,
          crd: at.crd,
          version: at.version,
          path,
          message,
          ...located(cause, decl ?? site?.field ?? site?.type),
        },
        site ? [site] : [],
      );
    const causeOf = (key: keyof JSONSchemaProps, made: (v: unknown) => boolean) =>
      site ? markerThatSets(site, a, key, made) : undefined;

    if (typeOf(b) !== typeOf(a)) {
      report(
        "type",
        `type changed from ${typeOf(b)} to ${typeOf(a)}`,
        causeOf("type", (v) => v === a.type),
      );
      return;
    }
    if (b["x-kubernetes-preserve-unknown-fields"] && !a["x-kubernetes-preserve-unknown-fields"]) {
      report(
        "type",
        "no longer keeps unknown fields: fields without a schema are now pruned from stored objects",
      );
    }
    if (b.nullable && !a.nullable) report("type", "no longer nullable: null is refused");

    if (a.format !== undefined && a.format !== b.format) {
      report(
        "format",
        b.format === undefined
          ? `format ${a.format} added`
          : `format changed from ${b.format} to ${a.format}`,
        causeOf("format", (v) => v === a.format),
      );
    }
    if (a.pattern !== undefined && a.pattern !== b.pattern) {
      report(
        "pattern",
        b.pattern === undefined
          ? `pattern ${JSON.stringify(a.pattern)} added`
          : `pattern changed from ${JSON.stringify(b.pattern)} to ${JSON.stringify(a.pattern)}`,
        causeOf("pattern", (v) => v === a.pattern),
      );
    }
    this.enumeration(b, a, report, causeOf);
    this.bounds(b, a, report, causeOf);
    this.topology(b, a, report, causeOf);
    this.rules(b, a, at, site);

    const removed = new Set<string>();
    for (const [key, bp] of Object.entries(b.properties ?? {})) {
      const ap = a.properties?.[key];
      if (!ap) {
        removed.add(key);
        // Accepted on the object that held it (report passes this node's site): the field is gone.
        const where = site?.type ?? site?.field;
        report(
          "removed-field",
          `field ${key} was removed (${typeOf(bp)})`,
          undefined,
          where,
          `${at.path}.${key}`,
        );
        continue;
      }
      this.schema(bp, ap, { ...at, path: `${at.path}.${key}` });
    }
    const wasRequired = new Set(b.required ?? []);
    for (const key of a.required ?? []) {
      if (wasRequired.has(key) || removed.has(key)) continue;
      const prop = a.properties?.[key];
      if (prop?.default !== undefined) continue;
      const child = this.site(at.crd, at.version, `${at.path}.${key}`);
      const marker = child?.markers.find((m) => m.def.requiredness?.mode === "required");
      this.change(
        {
          kind: "required",
          crd: at.crd,
          version: at.version,
          path: `${at.path}.${key}`,
          message: b.properties?.[key]
            ? `field ${key} became required (without a default): objects and clients that leave it out are refused`
            : `new required field ${key} without a default: existing objects and clients lack it`,
          ...located(marker, child?.field),
        },
        child ? [child] : site ? [site] : [],
      );
    }
    if (b.items && a.items) {
      this.schema(b.items, a.items, {
        ...at,
        path: `${at.path}[*]`,
        // Ratcheting finds an item's old value only in a listType=map list.
        correlatable: at.correlatable && a["x-kubernetes-list-type"] === "map",
      });
    }
    const bm = b.additionalProperties;
    const am = a.additionalProperties;
    if (typeof bm === "object" && typeof am === "object")
      this.schema(bm, am, { ...at, path: `${at.path}.*` });
    else if (typeof bm === "object" && am === undefined && a.properties) {
      report("type", "changed from a map to an object with fixed fields");
    }
  }

  private enumeration(b: JSONSchemaProps, a: JSONSchemaProps, report: Report, causeOf: CauseOf): void {
    if (!a.enum || a.enum.length === 0) return;
    const text = (v: unknown) => JSON.stringify(v);
    const now = new Set(a.enum.map(text));
    const cause = () => causeOf("enum", (v) => Array.isArray(v) && v.length === a.enum?.length);
    if (!b.enum || b.enum.length === 0) {
      report("enum", `enum added: only ${a.enum.map(text).join(", ")} are accepted`, cause());
      return;
    }
    const gone = b.enum.map(text).filter((v) => !now.has(v));
    if (gone.length > 0) report("enum", `enum narrowed: ${gone.join(", ")} no longer accepted`, cause());
  }

  private bounds(b: JSONSchemaProps, a: JSONSchemaProps, report: Report, causeOf: CauseOf): void {
    const tightened = (key: keyof JSONSchemaProps, was: unknown, is: unknown) =>
      report(
        "bounds",
        was === undefined
          ? `${key} ${String(is)} added`
          : `${key} tightened from ${String(was)} to ${String(is)}`,
        causeOf(key, (v) => v === is),
      );
    for (const key of LOWER_BOUNDS) {
      const is = a[key];
      const was = b[key];
      if (is !== undefined && (was === undefined || is > was)) tightened(key, was, is);
    }
    for (const key of UPPER_BOUNDS) {
      const is = a[key];
      const was = b[key];
      if (is !== undefined && (was === undefined || is < was)) tightened(key, was, is);
    }
    for (const [key, bound] of [
      ["exclusiveMinimum", "minimum"],
      ["exclusiveMaximum", "maximum"],
    ] as const) {
      if (a[key] && !b[key] && a[bound] === b[bound]) {
        report(
          "bounds",
          `${bound} ${String(a[bound])} became exclusive`,
          causeOf(key, (v) => v === true),
        );
      }
    }
    if (a.multipleOf !== undefined && (b.multipleOf === undefined || b.multipleOf % a.multipleOf !== 0)) {
      tightened("multipleOf", b.multipleOf, a.multipleOf);
    }
    if (a.uniqueItems && !b.uniqueItems) {
      report(
        "bounds",
        "items must now be unique",
        causeOf("uniqueItems", (v) => v === true),
      );
    }
    const old = new Set((b.allOf ?? []).map((s) => JSON.stringify(s)));
    for (const s of a.allOf ?? []) {
      if (!old.has(JSON.stringify(s))) report("bounds", `validation added: allOf ${JSON.stringify(s)}`);
    }
  }

  private topology(b: JSONSchemaProps, a: JSONSchemaProps, report: Report, causeOf: CauseOf): void {
    for (const t of TOPOLOGY) {
      if (a.type !== t.type) continue;
      const was = b[t.key] ?? t.absent;
      const is = a[t.key] ?? t.absent;
      if (was !== is) {
        report(
          t.kind,
          `${t.key} changed from ${was} to ${is}: server-side apply merges the ${t.what} differently`,
          causeOf(t.key, (v) => v === is),
        );
      }
    }
    const keys = (s: JSONSchemaProps) => [...(s["x-kubernetes-list-map-keys"] ?? [])].sort();
    if (a.type === "array" && b["x-kubernetes-list-type"] === a["x-kubernetes-list-type"]) {
      if (keys(b).join() === keys(a).join()) return;
      const added = keys(a).find((k) => !keys(b).includes(k));
      report(
        "list-type",
        `x-kubernetes-list-map-keys changed from [${keys(b).join(", ")}] to [${keys(a).join(", ")}]`,
        added === undefined
          ? undefined
          : causeOf("x-kubernetes-list-map-keys", (v) => Array.isArray(v) && v.includes(added)),
      );
    }
  }

  /**
   * New CEL rules. A transition rule (it uses oldSelf) only judges changes, never an object as it is.
   * Any other rule is ratcheted by the API server (CRD validation ratcheting, on since Kubernetes 1.30):
   * an update that leaves the rule's node as it was passes even when the old value fails. That keeps
   * existing objects usable only when the node is a scalar with a findable old value; on an object or
   * a list, a change anywhere beneath it re-runs the rule, and under items of a list that is not
   * listType=map the old value cannot be found at all.
   */
  private rules(b: JSONSchemaProps, a: JSONSchemaProps, at: Place, site: SchemaSite | undefined): void {
    const old = new Set((b["x-kubernetes-validations"] ?? []).map((r) => r.rule));
    for (const rule of a["x-kubernetes-validations"] ?? []) {
      if (old.has(rule.rule)) continue;
      const cause = site
        ? markerThatSets(
            site,
            a,
            "x-kubernetes-validations",
            (v) => Array.isArray(v) && v.some((r: { rule?: string }) => r.rule === rule.rule),
          )
        : undefined;
      const where = cause ? formatLocation(cause.loc) : (site?.field ?? site?.type);
      const safe = (why: string) =>
        this.safe.push({
          crd: at.crd,
          version: at.version,
          path: at.path,
          message: `new rule ${JSON.stringify(rule.rule)}: ${why}`,
          ...(where ? { where } : {}),
        });
      if (/\boldSelf\b/.test(rule.rule)) {
        safe("a transition rule (uses oldSelf): it judges changes, not the objects that exist");
        continue;
      }
      const scalar = SCALARS.has(a.type ?? "") || a["x-kubernetes-int-or-string"] === true;
      if (scalar && at.correlatable) {
        safe(
          "ratcheting applies: an update that leaves this value as it is passes even when the value fails the rule (Kubernetes 1.30+)",
        );
        continue;
      }
      const why = !at.correlatable
        ? "it sits under the items of a list that is not listType=map, where ratcheting cannot find the old value"
        : `it is on ${a.type === "array" ? "a list" : "an object"}, so any change beneath it re-runs the rule and ratcheting does not help`;
      this.change(
        {
          kind: "cel",
          crd: at.crd,
          version: at.version,
          path: at.path,
          message: `new rule ${JSON.stringify(rule.rule)} that existing objects may fail: ${why}`,
          ...located(cause, site?.type ?? site?.field),
        },
        site ? [site] : [],
      );
    }
  }
}

interface Place {
  crd: string;
  version: string;
  path: string;
  /** Ratcheting can find this node's old value (no list item of a non-map list on the way). */
  correlatable: boolean;
}

type Report = (
  kind: BreakKind,
  message: string,
  cause?: MarkerInstance,
  decl?: string,
  path?: string,
) => void;
type CauseOf = (key: keyof JSONSchemaProps, made: (v: unknown) => boolean) => MarkerInstance | undefined;

function typeOf(s: JSONSchemaProps): string {
  if (s["x-kubernetes-int-or-string"]) return "int-or-string";
  return s.type ?? "any";
}

function located(
  cause: MarkerInstance | undefined,
  decl: string | undefined,
): Pick<BreakingChange, "where" | "marker"> {
  if (cause) return { where: formatLocation(cause.loc), marker: cause.text };
  return decl ? { where: decl } : {};
}

/**
 * The marker of a site that produces today's value of `key`: each schema marker is applied to a copy
 * of today's node without that keyword, and the one that puts it back made it. Markers are never
 * matched by name, so a new marker is found without changes here.
 */
function markerThatSets(
  site: SchemaSite,
  node: JSONSchemaProps,
  key: keyof JSONSchemaProps,
  made: (v: unknown) => boolean,
): MarkerInstance | undefined {
  for (const m of site.markers) {
    const effect = m.def.schema;
    if (!effect) continue;
    const copy = structuredClone(node);
    delete copy[key];
    try {
      effect.apply(copy, m.value);
    } catch {
      continue;
    }
    if (copy[key] !== undefined && made(copy[key])) return m;
  }
  return undefined;
}
