import { type ArgValue, t } from "../../markers/args.js";
import type { MarkerDefinition, MarkerProblem } from "../../markers/registry.js";
import type { CrdVersion, CustomResourceDefinition } from "../types.js";
import { checkJsonPath, closestField } from "./schema-checks.js";

/** Type-level CRD markers (controller-tools pkg/crd/markers/crd.go), applied to the root kind's CRD. */

/**
 * A marker with a type-level effect on the root kind's CRD, for the version the type belongs to.
 * The effect is the CRD generator's, so it is declared here and not by the generic marker engine.
 */
export interface CrdMarkerDefinition<V = unknown> extends MarkerDefinition<V> {
  crd(crd: CustomResourceDefinition, version: string, value: V): void;
}

function defineCrdMarker<V>(def: CrdMarkerDefinition<V>): CrdMarkerDefinition<V> {
  return def;
}

/** The marker changes the CRD itself (crd/build.ts applies it once the versions' schemas exist). */
export const hasCrdEffect = (def: MarkerDefinition): def is CrdMarkerDefinition => "crd" in def;

function versionOf(crd: CustomResourceDefinition, version: string, what: string): CrdVersion {
  const v = crd.spec.versions.find((x) => x.name === version);
  if (!v) throw new Error(`${what} applied to version "${version}" not in CRD`);
  return v;
}

const str = (v: ArgValue | undefined): string | undefined => (v === undefined ? undefined : String(v));
const strs = (v: ArgValue | undefined): string[] | undefined =>
  v === undefined ? undefined : (v as string[]);

export const subresourceStatus = defineCrdMarker<undefined>({
  name: "kubebuilder:subresource:status",
  targets: ["type"],
  args: { kind: "none" },
  help: "enables the status subresource",
  crd: (crd, version) => {
    const v = versionOf(crd, version, "status subresource");
    v.subresources = { ...v.subresources, status: {} };
  },
});

export const subresourceScale = defineCrdMarker<Record<string, ArgValue>>({
  name: "kubebuilder:subresource:scale",
  targets: ["type"],
  args: {
    kind: "fields",
    fields: {
      specpath: { type: t.string },
      statuspath: { type: t.string },
      selectorpath: { type: t.string, optional: true },
    },
  },
  help: "enables the scale subresource (specpath, statuspath, selectorpath)",
  crd: (crd, version, a) => {
    const v = versionOf(crd, version, "scale subresource");
    const scale: NonNullable<CrdVersion["subresources"]>["scale"] = {
      specReplicasPath: a.specpath as string,
      statusReplicasPath: a.statuspath as string,
    };
    if (a.selectorpath !== undefined) scale.labelSelectorPath = a.selectorpath as string;
    v.subresources = { ...v.subresources, scale };
  },
});

export const printColumn = defineCrdMarker<Record<string, ArgValue>>({
  name: "kubebuilder:printcolumn",
  targets: ["type"],
  args: {
    kind: "fields",
    fields: {
      name: { type: t.string },
      type: { type: t.string },
      JSONPath: { type: t.string },
      description: { type: t.string, optional: true },
      format: { type: t.string, optional: true },
      priority: { type: t.int, optional: true },
    },
  },
  help: "adds a column to `kubectl get` (name, type, JSONPath, description, format, priority)",
  repeatable: true,
  check: (a, { schema }) => {
    const problems = checkColumn(a);
    return problems.pathUsable
      ? [...problems.found, ...checkJsonPath(String(a.JSONPath ?? ""), schema)]
      : problems.found;
  },
  crd: (crd, version, a) => {
    const v = versionOf(crd, version, "printer columns");
    v.subresources ??= {};
    const col: NonNullable<CrdVersion["additionalPrinterColumns"]>[number] = {
      name: a.name as string,
      type: a.type as string,
      jsonPath: a.JSONPath as string,
    };
    if (a.description) col.description = a.description as string;
    if (a.format) col.format = a.format as string;
    if (a.priority) col.priority = a.priority as number;
    v.additionalPrinterColumns = [...(v.additionalPrinterColumns ?? []), col];
  },
});

export const resource = defineCrdMarker<Record<string, ArgValue>>({
  name: "kubebuilder:resource",
  targets: ["type"],
  args: {
    kind: "fields",
    fields: {
      path: { type: t.string, optional: true },
      shortName: { type: t.strings, optional: true },
      categories: { type: t.strings, optional: true },
      singular: { type: t.string, optional: true },
      scope: { type: t.string, optional: true },
    },
  },
  help: "resource names and scope (path, shortName, categories, singular, scope=Cluster|Namespaced)",
  crd: (crd, _version, a) => {
    const names = crd.spec.names;
    if (a.path) names.plural = a.path as string;
    if (a.singular) names.singular = a.singular as string;
    const shortNames = strs(a.shortName);
    const categories = strs(a.categories);
    if (shortNames && shortNames.length > 0) names.shortNames = shortNames;
    else delete names.shortNames;
    if (categories && categories.length > 0) names.categories = categories;
    else delete names.categories;
    crd.spec.scope = str(a.scope) || "Namespaced";
  },
});

export const storageVersion = defineCrdMarker<undefined>({
  name: "kubebuilder:storageversion",
  targets: ["type"],
  args: { kind: "none" },
  help: "this version is the storage version",
  crd: (crd, version) => {
    versionOf(crd, version, "storage version").storage = true;
  },
});

export const skipVersion = defineCrdMarker<undefined>({
  name: "kubebuilder:skipversion",
  targets: ["type"],
  args: { kind: "none" },
  help: "leaves this version out of the CRD",
  crd: (crd, version) => {
    crd.spec.versions = crd.spec.versions.filter((v) => v.name !== version);
  },
});

export const unservedVersion = defineCrdMarker<undefined>({
  name: "kubebuilder:unservedversion",
  targets: ["type"],
  args: { kind: "none" },
  help: "this version is not served",
  crd: (crd, version) => {
    const v = crd.spec.versions.find((x) => x.name === version);
    if (v) v.served = false;
  },
});

export const deprecatedVersion = defineCrdMarker<Record<string, ArgValue>>({
  name: "kubebuilder:deprecatedversion",
  targets: ["type"],
  args: { kind: "fields", fields: { warning: { type: t.string, optional: true } } },
  help: "this version is deprecated (warning=...)",
  crd: (crd, version, a) => {
    const v = crd.spec.versions.find((x) => x.name === version);
    if (!v) return;
    v.deprecated = true;
    if (a.warning !== undefined) v.deprecationWarning = a.warning as string;
  },
});

export const crdMetadata = defineCrdMarker<Record<string, ArgValue>>({
  name: "kubebuilder:metadata",
  targets: ["type"],
  args: {
    kind: "fields",
    fields: { annotations: { type: t.strings, optional: true }, labels: { type: t.strings, optional: true } },
  },
  help: 'annotations and labels of the CRD object ("k=v")',
  repeatable: true,
  crd: (crd, _version, a) => {
    for (const s of strs(a.annotations) ?? []) {
      const i = s.indexOf("=");
      if (i < 0) throw new Error(`annotation ${s} is not in 'xxx=xxx' format`);
      crd.metadata.annotations = { ...crd.metadata.annotations, [s.slice(0, i)]: s.slice(i + 1) };
    }
    for (const s of strs(a.labels) ?? []) {
      const i = s.indexOf("=");
      if (i < 0) throw new Error(`label ${s} is not in 'xxx=xxx' format`);
      crd.metadata.labels = { ...crd.metadata.labels, [s.slice(0, i)]: s.slice(i + 1) };
    }
  },
});

export const selectableField = defineCrdMarker<Record<string, ArgValue>>({
  name: "kubebuilder:selectablefield",
  targets: ["type"],
  args: { kind: "fields", fields: { JSONPath: { type: t.string } } },
  help: "a field usable in field selectors (JSONPath)",
  repeatable: true,
  check: (a, { schema }) => checkJsonPath(String(a.JSONPath ?? ""), schema),
  crd: (crd, version, a) => {
    const v = versionOf(crd, version, "selectable field");
    v.selectableFields = [...(v.selectableFields ?? []), { jsonPath: a.JSONPath as string }];
  },
});

export const crdMarkers: MarkerDefinition[] = [
  subresourceStatus,
  subresourceScale,
  printColumn,
  resource,
  storageVersion,
  skipVersion,
  unservedVersion,
  deprecatedVersion,
  crdMetadata,
  selectableField,
];

// What apiextensions' ValidateCustomResourceColumnDefinition accepts.
const COLUMN_TYPES = ["boolean", "date", "integer", "number", "string"];
const COLUMN_FORMATS = ["byte", "date", "date-time", "double", "float", "int32", "int64", "password"];

/** A printer column's type, format and path as the API server validates them; the path is unusable when not simple. */
function checkColumn(v: Record<string, ArgValue>): { found: MarkerProblem[]; pathUsable: boolean } {
  const found: MarkerProblem[] = [];
  const name = `+kubebuilder:printcolumn:name=${JSON.stringify(String(v.name ?? ""))}`;
  const type = String(v.type ?? "");
  if (!COLUMN_TYPES.includes(type)) {
    const guess = closestField(type, COLUMN_TYPES);
    found.push({
      message: `${name}: type=${type} is not a printer column type; the API server would refuse the CRD`,
      fix: `use type=${guess ?? "string"} (one of ${COLUMN_TYPES.join(", ")})`,
    });
  }
  const format = v.format === undefined ? "" : String(v.format);
  if (format !== "" && !COLUMN_FORMATS.includes(format)) {
    const guess = closestField(format, COLUMN_FORMATS);
    found.push({
      message: `${name}: format=${format} is not a printer column format; the API server would refuse the CRD`,
      fix: `${guess ? `use format=${guess}, or ` : ""}drop format (one of ${COLUMN_FORMATS.join(", ")})`,
    });
  }
  const path = String(v.JSONPath ?? "");
  if (path === "" || !path.startsWith(".")) {
    const simple = path.replace(/^\{(.*)\}$/, "$1").replace(/^\$/, "");
    found.push({
      message: `${name}: JSONPath=${JSON.stringify(path)} must be a simple path starting with "." (no {} or $); the API server would refuse the CRD`,
      fix: `write JSONPath=${JSON.stringify(simple.startsWith(".") ? simple : `.${simple}`)}`,
    });
    return { found, pathUsable: false };
  }
  return { found, pathUsable: true };
}
