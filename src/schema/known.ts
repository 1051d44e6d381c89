import type { JSONSchemaProps } from "@kbts/runtime";
import { KNOWN_GO_TYPES } from "./known/names.js";

/**
 * Schemas of the Kubernetes types kbts knows by name when they come from @kbts/runtime, as
 * controller-gen maps their Go twins (pkg/crd/known_types.go), plus the large generated ones
 * (LabelSelector, Condition, core/v1 types) taken verbatim from controller-gen's output.
 */

/** Basic types: `int`/`uint`/`int32`/`int64` are Go builtins (no named-type flattening). */
export const BASIC_TYPES: Record<string, JSONSchemaProps> = {
  int: { type: "integer" },
  uint: { type: "integer" },
  int32: { type: "integer", format: "int32" },
  int64: { type: "integer", format: "int64" },
};

/** Floats: only with --allow-dangerous-types. */
export const FLOAT_TYPES = new Set(["float64", "float32"]);

const QUANTITY_PATTERN =
  "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

/** controller-gen's KnownPackages overrides. */
const OVERRIDES: Record<string, JSONSchemaProps> = {
  ObjectMeta: { type: "object" },
  Time: { type: "string", format: "date-time" },
  MicroTime: { type: "string", format: "date-time" },
  Duration: { type: "string" },
  Quantity: {
    anyOf: [{ type: "integer" }, { type: "string" }],
    pattern: QUANTITY_PATTERN,
    "x-kubernetes-int-or-string": true,
  },
  IntOrString: { anyOf: [{ type: "integer" }, { type: "string" }], "x-kubernetes-int-or-string": true },
  RawExtension: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
  JSON: { "x-kubernetes-preserve-unknown-fields": true },
  Fields: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
};

let generated: Record<string, JSONSchemaProps> = {};

/**
 * Loads the large generated schemas (1.5 MB of JS) when some source mentions one of their names;
 * most runs never pay for them.
 */
export async function loadKnownTypes(sources: readonly string[]): Promise<void> {
  const names = new RegExp(`\\b(${Object.keys(KNOWN_GO_TYPES).join("|")})\\b`);
  if (sources.some((s) => names.test(s))) generated = (await import("./known/k8s-types.js")).K8S_TYPES;
}

const generatedTypes = () => generated;

/** Whether kbts knows the schema of the @kbts/runtime type of this exported name. */
export const isKnownType = (name: string): boolean =>
  (OVERRIDES[name] ?? generatedTypes()[name]) !== undefined;

/** The schema of a known @kbts/runtime type by its exported name (a copy, the caller's to change), or undefined. */
export function knownTypeSchema(name: string): JSONSchemaProps | undefined {
  const s = OVERRIDES[name] ?? generatedTypes()[name];
  return s ? structuredClone(s) : undefined;
}

/** The descriptions controller-gen writes for metav1.TypeMeta's fields. */
export const TYPE_META: Record<"apiVersion" | "kind", JSONSchemaProps> = {
  apiVersion: {
    description:
      "APIVersion defines the versioned schema of this representation of an object.\nServers should convert recognized schemas to the latest internal value, and\nmay reject unrecognized values.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
    type: "string",
  },
  kind: {
    description:
      "Kind is a string value representing the REST resource this object represents.\nServers may infer this from the endpoint the client submits requests to.\nCannot be updated.\nIn CamelCase.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
    type: "string",
  },
};
