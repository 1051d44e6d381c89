import type { JSONSchemaProps, ValidationRule } from "@kbts/runtime";
import { celPropertyName, ruleTypeProblems } from "@kbts/runtime/validation";
import { Environment } from "@marcbachmann/cel-js";
import { RE2JS } from "re2js";
import { compareStrings } from "../../compare.js";
import { type ArgsShape, type ArgType, type ArgValue, t } from "../../markers/args.js";
import {
  type CheckedNode,
  defineMarker,
  type MarkerDefinition,
  type MarkerProblem,
  type SchemaEffect,
  type Target,
} from "../../markers/registry.js";
import { closestField, isOpen, mismatch } from "./schema-checks.js";

/**
 * Schema markers (controller-tools pkg/crd/markers/validation.go, topology.go): each is one definition
 * that parses and applies itself. The `kubebuilder:validation:<Name>` markers exist for fields and
 * types, and as `kubebuilder:validation:items:<Name>` applied to an array's items.
 */

const PREFIX = "kubebuilder:validation:";
const FIELD_AND_TYPE: readonly Target[] = ["field", "type"];

const isNumeric = (s: JSONSchemaProps) => s.type === "integer" || s.type === "number";
const isTextual = (s: JSONSchemaProps) => s.type === "string" || s["x-kubernetes-int-or-string"] === true;
function need(ok: boolean, message: string): asserts ok {
  if (!ok) throw new Error(message);
}
const found = (s: JSONSchemaProps) => s.type ?? "";

interface ValidationSpec<V> {
  name: string;
  args: ArgsShape;
  help: string;
  priority?: number;
  keepsUnknownFields?: boolean;
  repeatable?: boolean;
  setsType?: boolean;
  /** Checks the marker's value (not its items: variant's) against the finished schema. */
  check?(value: V, node: CheckedNode): MarkerProblem[];
  apply(schema: JSONSchemaProps, value: V): void;
}

const value = (type: ArgType): ArgsShape => ({ kind: "value", type });
const none: ArgsShape = { kind: "none" };

function numberBound(
  key: "maximum" | "minimum" | "multipleOf",
  label: string,
): (s: JSONSchemaProps, v: number) => void {
  return (s, v) => {
    need(isNumeric(s), `must apply ${label} to a numeric value, found ${found(s)}`);
    need(
      !(s.type === "integer" && !Number.isInteger(v)),
      `cannot apply non-integral ${label} validation (${v}) to integer value`,
    );
    if (key === "maximum" && s.minimum !== undefined) {
      need(s.minimum <= v, `maximum ${v} is less than minimum ${s.minimum}: no value could pass`);
    }
    if (key === "minimum" && s.maximum !== undefined) {
      need(v <= s.maximum, `minimum ${v} is greater than maximum ${s.maximum}: no value could pass`);
    }
    s[key] = v;
  };
}

/** The largest int64, the type of every length and count bound in the API server's schema. */
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A length or count bound (maxLength, minItems, ...): an int64 of 0 or more, as the API server
 * checks it, exact in JavaScript, and not crossing its opposite bound.
 */
function countBound(
  key: "maxLength" | "minLength" | "maxItems" | "minItems" | "maxProperties" | "minProperties",
  s: JSONSchemaProps,
  v: number,
): void {
  need(v >= 0, `${key} must be 0 or more, got ${v} (the API server refuses negative bounds)`);
  need(
    Number.isFinite(v) && BigInt(Math.trunc(v)) <= INT64_MAX,
    `${key} ${v} is beyond int64 (at most ${INT64_MAX}), which the API server refuses`,
  );
  need(
    Number.isSafeInteger(v),
    `${key} ${v} is larger than kbts can write exactly (at most ${Number.MAX_SAFE_INTEGER})`,
  );
  const suffix = key.slice(3);
  const [minKey, maxKey] = [`min${suffix}`, `max${suffix}`] as const;
  const next = { ...s, [key]: v } as Record<string, unknown>;
  const [min, max] = [next[minKey], next[maxKey]];
  if (typeof min === "number" && typeof max === "number") {
    need(min <= max, `${minKey} ${min} is greater than ${maxKey} ${max}: no value could pass`);
  }
  s[key] = v;
}

/** The API server compiles `pattern` with Go's regexp (RE2 syntax): no lookaround, no backreferences. */
function checkRE2(pattern: string): void {
  try {
    RE2JS.compile(pattern);
  } catch (err) {
    throw new Error(
      `pattern ${JSON.stringify(pattern)} is not a valid RE2 regular expression, as the API server reads it: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** Enum values must have the field's type (the API server checks each against the schema). */
function checkEnumTypes(s: JSONSchemaProps, values: ArgValue[]): void {
  const wanted = s["x-kubernetes-int-or-string"] === true ? undefined : s.type;
  if (!wanted) return;
  for (const v of values) {
    const ok =
      (wanted === "integer" && typeof v === "number" && Number.isInteger(v)) ||
      (wanted === "number" && typeof v === "number") ||
      (wanted === "string" && typeof v === "string") ||
      (wanted === "boolean" && typeof v === "boolean") ||
      (wanted !== "integer" && wanted !== "number" && wanted !== "string" && wanted !== "boolean");
    need(ok, `enum value ${JSON.stringify(v)} is not of the field's type ${wanted}`);
  }
}

const validationSpecs: ValidationSpec<never>[] = [
  {
    name: "Maximum",
    args: value(t.number),
    help: "the maximum numeric value",
    apply: numberBound("maximum", "maximum"),
  },
  {
    name: "Minimum",
    args: value(t.number),
    help: "the minimum numeric value",
    apply: numberBound("minimum", "minimum"),
  },
  {
    name: "ExclusiveMaximum",
    args: value(t.bool),
    help: "the maximum is exclusive",
    apply: (s: JSONSchemaProps, v: boolean) => {
      need(isNumeric(s), `must apply exclusivemaximum to a numeric value, found ${found(s)}`);
      if (v) s.exclusiveMaximum = true;
    },
  },
  {
    name: "ExclusiveMinimum",
    args: value(t.bool),
    help: "the minimum is exclusive",
    apply: (s: JSONSchemaProps, v: boolean) => {
      need(isNumeric(s), `must apply exclusiveminimum to a numeric value, found ${found(s)}`);
      if (v) s.exclusiveMinimum = true;
    },
  },
  {
    name: "MultipleOf",
    args: value(t.number),
    help: "the value must be a multiple of this",
    apply: numberBound("multipleOf", "multipleof"),
  },
  {
    name: "MinProperties",
    args: value(t.int),
    help: "the minimum number of properties",
    apply: (s: JSONSchemaProps, v: number) => {
      need(s.type === "object", "must apply minproperties to an object");
      countBound("minProperties", s, v);
    },
  },
  {
    name: "MaxProperties",
    args: value(t.int),
    help: "the maximum number of properties",
    apply: (s: JSONSchemaProps, v: number) => {
      need(s.type === "object", "must apply maxproperties to an object");
      countBound("maxProperties", s, v);
    },
  },
  {
    name: "MaxLength",
    args: value(t.int),
    help: "the maximum length of a string",
    apply: (s: JSONSchemaProps, v: number) => {
      need(isTextual(s), `must apply maxlength to a textual value, found type "${found(s)}"`);
      countBound("maxLength", s, v);
    },
  },
  {
    name: "MinLength",
    args: value(t.int),
    help: "the minimum length of a string",
    apply: (s: JSONSchemaProps, v: number) => {
      need(isTextual(s), `must apply minlength to a textual value, found type "${found(s)}"`);
      countBound("minLength", s, v);
    },
  },
  {
    name: "Pattern",
    args: value(t.string),
    help: "a regular expression the string must match",
    apply: (s: JSONSchemaProps, v: string) => {
      need(isTextual(s), `must apply pattern to a textual value, found type "${found(s)}"`);
      checkRE2(v);
      s.pattern = v;
    },
  },
  {
    name: "MaxItems",
    args: value(t.int),
    help: "the maximum length of a list",
    apply: (s: JSONSchemaProps, v: number) => {
      need(s.type === "array", "must apply maxitem to an array");
      countBound("maxItems", s, v);
    },
  },
  {
    name: "MinItems",
    args: value(t.int),
    help: "the minimum length of a list",
    apply: (s: JSONSchemaProps, v: number) => {
      need(s.type === "array", "must apply minitems to an array");
      countBound("minItems", s, v);
    },
  },
  {
    name: "UniqueItems",
    args: value(t.bool),
    help: "every item of the list must be unique",
    apply: (s: JSONSchemaProps, v: boolean) => {
      need(s.type === "array", "must apply uniqueitems to an array");
      if (v) s.uniqueItems = true;
    },
  },
  {
    name: "Enum",
    args: value(t.anys),
    help: "the allowed values (a;b;c)",
    apply: (s: JSONSchemaProps, v: ArgValue[]) => {
      checkEnumTypes(s, v);
      s.enum = v;
    },
  },
  {
    name: "Format",
    args: value(t.string),
    help: "the OpenAPI format (date-time, byte, ...)",
    apply: (s: JSONSchemaProps, v: string) => {
      s.format = v;
    },
  },
  {
    name: "Type",
    args: value(t.string),
    help: "overrides the type (applied first)",
    priority: 9,
    setsType: true,
    apply: (s: JSONSchemaProps, v: string) => {
      s.type = v;
    },
  },
  {
    name: "XPreserveUnknownFields",
    args: none,
    help: "unknown fields are kept (x-kubernetes-preserve-unknown-fields)",
    keepsUnknownFields: true,
    apply: (s: JSONSchemaProps) => {
      s["x-kubernetes-preserve-unknown-fields"] = true;
    },
  },
  {
    name: "XEmbeddedResource",
    args: none,
    help: "the value is an embedded Kubernetes object (x-kubernetes-embedded-resource)",
    apply: (s: JSONSchemaProps) => {
      s["x-kubernetes-embedded-resource"] = true;
    },
  },
  {
    name: "XIntOrString",
    args: none,
    help: "the value is an int or a string (x-kubernetes-int-or-string; applied first)",
    priority: 9,
    apply: (s: JSONSchemaProps) => {
      s["x-kubernetes-int-or-string"] = true;
    },
  },
  {
    name: "XValidation",
    args: {
      kind: "fields",
      fields: {
        rule: { type: t.string },
        message: { type: t.string, optional: true },
        messageExpression: { type: t.string, optional: true },
        reason: { type: t.string, optional: true },
        fieldPath: { type: t.string, optional: true },
        optionalOldSelf: { type: t.bool, optional: true },
      },
    },
    help: "a CEL validation rule (x-kubernetes-validations)",
    repeatable: true,
    check: checkRule,
    apply: (s: JSONSchemaProps, v: Record<string, ArgValue>) => applyRule(s, v),
  },
] as unknown as ValidationSpec<never>[];

type Reason = NonNullable<ValidationRule["reason"]>;
const REASONS: readonly Reason[] = [
  "FieldValueRequired",
  "FieldValueInvalid",
  "FieldValueForbidden",
  "FieldValueDuplicate",
];
const isReason = (r: string): r is Reason => (REASONS as readonly string[]).includes(r);

function applyRule(s: JSONSchemaProps, v: Record<string, ArgValue>): void {
  const reason = v.reason as string | undefined;
  if (reason && !isReason(reason)) {
    throw new Error(
      `invalid reason ${reason}, valid values are ${REASONS.slice(0, 3).join(", ")} and ${REASONS[3]}`,
    );
  }
  const rule: ValidationRule = { rule: v.rule as string };
  if (v.message) rule.message = v.message as string;
  if (v.messageExpression) rule.messageExpression = v.messageExpression as string;
  if (reason && isReason(reason)) rule.reason = reason;
  if (v.fieldPath) rule.fieldPath = v.fieldPath as string;
  if (v.optionalOldSelf !== undefined) rule.optionalOldSelf = v.optionalOldSelf as boolean;
  s["x-kubernetes-validations"] = [...(s["x-kubernetes-validations"] ?? []), rule];
}

function schemaDef<V>(
  name: string,
  targets: readonly Target[],
  args: ArgsShape,
  help: string,
  schema: SchemaEffect<V>,
  extra: Pick<
    MarkerDefinition<V>,
    "keepsUnknownFields" | "check" | "hashComments" | "repeatable" | "setsType"
  > = {},
): MarkerDefinition<V> {
  return defineMarker<V>({ name, targets, args, help, schema, ...extra });
}

/** `kubebuilder:validation:X` and `kubebuilder:validation:items:X` for every validation marker. */
export const validationMarkers: MarkerDefinition[] = validationSpecs.flatMap((spec) => [
  schemaDef(
    `${PREFIX}${spec.name}`,
    FIELD_AND_TYPE,
    spec.args,
    spec.help,
    { priority: spec.priority, apply: spec.apply },
    {
      ...(spec.keepsUnknownFields ? { keepsUnknownFields: true } : {}),
      ...(spec.check ? { check: spec.check } : {}),
      ...(spec.repeatable ? { repeatable: true } : {}),
      ...(spec.setsType ? { setsType: true } : {}),
    },
  ),
  schemaDef(
    `${PREFIX}items:${spec.name}`,
    FIELD_AND_TYPE,
    spec.args,
    `for array items: ${spec.help}`,
    { priority: spec.priority, items: true, apply: spec.apply },
    {
      ...(spec.keepsUnknownFields ? { keepsUnknownFields: true } : {}),
      ...(spec.repeatable ? { repeatable: true } : {}),
    },
  ),
]);

const presence = (
  name: string,
  mode: "optional" | "required",
  rank: number,
  help: string,
  schema?: SchemaEffect<undefined>,
) =>
  defineMarker<undefined>({
    name,
    targets: ["field"],
    args: none,
    help,
    requiredness: { mode, rank },
    schema,
  });

/** k8s:required also sets a minimum size (controller-tools v0.23 K8sRequired). */
const k8sRequired: SchemaEffect<undefined> = {
  apply(s) {
    if (s.type === "string") s.minLength ??= 1;
    else if (s.type === "array") s.minItems ??= 1;
    else if (s.type === "object" || s.type === undefined) s.minProperties ??= 1;
  },
};

const setTrue = (
  key: "nullable" | "x-kubernetes-embedded-resource" | "x-kubernetes-preserve-unknown-fields",
) => ({
  apply(s: JSONSchemaProps) {
    s[key] = true;
  },
});

function toDefault(s: JSONSchemaProps, v: unknown): void {
  const isEmptyMap = v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0;
  s.default = s.type === "array" && isEmptyMap ? [] : v;
}

export const fieldOnlyMarkers: MarkerDefinition[] = [
  presence(`${PREFIX}Optional`, "optional", 0, "the field is optional"),
  presence(`${PREFIX}Required`, "required", 1, "the field is required"),
  presence("optional", "optional", 2, "the field is optional"),
  presence("k8s:optional", "optional", 2, "the field is optional"),
  presence("required", "required", 3, "the field is required"),
  presence("k8s:required", "required", 3, "the field is required (and may not be empty)", k8sRequired),
  defineMarker<undefined>({
    name: "nullable",
    targets: ["field"],
    args: none,
    help: "the field may be null",
    schema: setTrue("nullable"),
  }),
  defineMarker<unknown>({
    name: "kubebuilder:default",
    targets: ["field"],
    args: value(t.any),
    help: "the default value, in marker syntax ({a,b}, {k: v}, 42, text)",
    schema: { priority: 10, apply: toDefault },
    check: defaultFits("kubebuilder:default"),
  }),
  defineMarker<unknown>({
    name: "default",
    targets: ["field"],
    args: value(t.raw),
    help: "the default value as JSON (ref(...) is ignored)",
    convert: (_args, text) => {
      if (text.trim().startsWith("ref(")) return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new Error(`expected a JSON value, got ${JSON.stringify(text)}`);
      }
    },
    check: defaultFits("default"),
    schema: {
      priority: 9,
      apply: (s, v) => {
        if (v !== undefined) s.default = v;
      },
    },
  }),
  defineMarker<unknown>({
    name: "kubebuilder:example",
    targets: ["field"],
    args: value(t.any),
    help: "an example value",
    schema: {
      apply: (s, v) => {
        s.example = v;
      },
    },
  }),
  defineMarker<undefined>({
    name: `${PREFIX}EmbeddedResource`,
    targets: ["field"],
    args: none,
    help: "the field is an embedded Kubernetes object",
    schema: setTrue("x-kubernetes-embedded-resource"),
  }),
  defineMarker<undefined>({
    name: `${PREFIX}Schemaless`,
    targets: ["field"],
    args: none,
    help: "the field's schema is not generated from its type (only other markers apply)",
    schemaless: true,
  }),
  defineMarker<undefined>({
    name: "k8s:immutable",
    targets: ["field"],
    args: none,
    help: "the field may not change once set",
    // An optional field must also not be removed once set: a rule on the parent says so.
    parentRule: (field) => ({
      rule: `!has(oldSelf.${field}) || has(self.${field})`,
      message: `field ${field} is immutable once set`,
    }),
    schema: {
      apply: (s) => {
        s["x-kubernetes-validations"] = [
          ...(s["x-kubernetes-validations"] ?? []),
          { rule: "self == oldSelf", message: "field is immutable" },
        ];
      },
    },
  }),
  // Declarative validation tags: a `# comment` after the value is dropped (only on these three, as in
  // controller-tools v0.23; on +k8s:optional and the other flags it makes an unknown marker).
  schemaDef(
    "k8s:maxItems",
    ["field"],
    value(t.int),
    "the maximum length of a list",
    {
      apply: (s, v: number) => {
        need(s.type === "array", "must apply maxitem to an array");
        countBound("maxItems", s, v);
      },
    },
    { hashComments: true },
  ),
  schemaDef(
    "k8s:minimum",
    ["field"],
    value(t.number),
    "the minimum numeric value",
    { apply: numberBound("minimum", "minimum") },
    { hashComments: true },
  ),
  schemaDef(
    "k8s:maximum",
    ["field"],
    value(t.number),
    "the maximum numeric value",
    { apply: numberBound("maximum", "maximum") },
    { hashComments: true },
  ),
];

function oneOf(
  name: string,
  priority: number,
  build: (fields: string[]) => { rule: string; message: string },
) {
  return defineMarker<string[]>({
    name: `${PREFIX}${name}`,
    targets: ["type"],
    args: value(t.strings),
    help: `${name} constraint over the listed fields (a;b)`,
    repeatable: true,
    convert: (args) => {
      const fields = args as string[];
      const nested = fields.filter((f) => f.includes("."));
      if (nested.length > 0) throw new Error(`cannot reference nested fields: ${nested.join(",")}`);
      return fields;
    },
    oneOfFields: (v) => v,
    schema: {
      priority,
      apply: (s, fields) => {
        if (fields.length === 0) return;
        const r = build(fields);
        s["x-kubernetes-validations"] = [...(s["x-kubernetes-validations"] ?? []), r];
      },
    },
  });
}

const sum = (fields: string[]) => fields.map((f) => `(has(self.${f})?1:0)`).join("+");
const goList = (fields: string[]) => `[${fields.join(" ")}]`;

/** k8s:enum: the type's values (a string-literal union or enum) become a sorted enum, as controller-gen sorts the consts. */
const k8sEnum = defineMarker<undefined>({
  name: "k8s:enum",
  targets: ["type"],
  args: none,
  help: "the type is an enum of its string values (sorted)",
  schema: {
    apply: (s) => {
      need(
        s.type === "string" && (s.enum?.length ?? 0) > 0,
        "k8s:enum needs a string-literal union or a string enum",
      );
      s.enum = [...(s.enum ?? [])].sort((a, b) => compareStrings(JSON.stringify(a), JSON.stringify(b)));
    },
  },
});

export const typeOnlyMarkers: MarkerDefinition[] = [
  k8sEnum,
  oneOf("AtMostOneOf", 11, (f) => ({
    rule: `${sum(f)} <= 1`,
    message: `at most one of the fields in ${goList(f)} may be set`,
  })),
  oneOf("ExactlyOneOf", 12, (f) => ({
    rule: `${sum(f)} == 1`,
    message: `exactly one of the fields in ${goList(f)} must be set`,
  })),
  oneOf("AtLeastOneOf", 13, (f) => ({
    rule: f.map((x) => `has(self.${x})`).join("||"),
    message: `at least one of the fields in ${goList(f)} must be set`,
  })),
];

function listType(name: string) {
  return defineMarker<string>({
    name,
    targets: FIELD_AND_TYPE,
    args: value(t.string),
    help: "the list's merge semantics: map, set or atomic",
    schema: {
      priority: 9,
      apply: (s, v) => {
        need(s.type === "array", `must apply listType to an array, found ${found(s)}`);
        need(
          v === "map" || v === "set" || v === "atomic",
          'ListType must be either "map", "set" or "atomic"',
        );
        s["x-kubernetes-list-type"] = v;
      },
    },
  });
}

function listMapKey(name: string) {
  return defineMarker<string>({
    name,
    targets: FIELD_AND_TYPE,
    args: value(t.string),
    help: "a key field of a listType=map list",
    repeatable: true,
    schema: {
      apply: (s, v) => {
        need(s.type === "array", `must apply listMapKey to an array, found ${found(s)}`);
        need(s["x-kubernetes-list-type"] === "map", "must apply listMapKey to an associative-list");
        const keys = s["x-kubernetes-list-map-keys"] ?? [];
        if (!keys.includes(v)) s["x-kubernetes-list-map-keys"] = [...keys, v];
      },
    },
    check: (key, { schema }) => {
      const item = schema.items;
      if (!item?.properties || isOpen(item)) return [];
      if (!(key in item.properties)) {
        const guess = closestField(key, Object.keys(item.properties));
        return [
          {
            message: `+listMapKey=${key}: the list's items have no field "${key}"${guess ? ` (did you mean ${guess}?)` : ""}`,
            fix: `use a field of the item type (${Object.keys(item.properties).sort().join(", ")})`,
          },
        ];
      }
      // The API server rejects the CRD otherwise (kubernetes#91395).
      const prop = item.properties[key];
      if (!(item.required ?? []).includes(key) && prop?.default === undefined) {
        return [
          {
            message: `+listMapKey=${key}: "${key}" must be required or have a default, or the API server rejects the CRD`,
            fix: `make ${key} required (no ?) or give it a +kubebuilder:default`,
          },
        ];
      }
      return [];
    },
  });
}

export const topologyMarkers: MarkerDefinition[] = [
  listType("listType"),
  listType("k8s:listType"),
  listMapKey("listMapKey"),
  listMapKey("k8s:listMapKey"),
  defineMarker<string>({
    name: "mapType",
    targets: FIELD_AND_TYPE,
    args: value(t.string),
    help: "the map's merge semantics: granular or atomic",
    schema: {
      apply: (s, v) => {
        need(s.type === "object", "must apply mapType to an object");
        need(v === "atomic" || v === "granular", 'MapType must be either "granular" or "atomic"');
        s["x-kubernetes-map-type"] = v;
      },
    },
  }),
  defineMarker<string>({
    name: "structType",
    targets: FIELD_AND_TYPE,
    args: value(t.string),
    help: "the object's merge semantics: granular or atomic",
    schema: {
      apply: (s, v) => {
        need(
          s.type === "object" || s.type === undefined,
          "must apply structType to an object; either explicitly set or defaulted through an empty schema type",
        );
        need(v === "atomic" || v === "granular", 'StructType must be either "granular" or "atomic"');
        s["x-kubernetes-map-type"] = v;
      },
    },
  }),
  defineMarker<undefined>({
    name: "kubebuilder:pruning:PreserveUnknownFields",
    targets: FIELD_AND_TYPE,
    args: none,
    help: "unknown fields are kept (x-kubernetes-preserve-unknown-fields)",
    keepsUnknownFields: true,
    schema: setTrue("x-kubernetes-preserve-unknown-fields"),
  }),
  defineMarker<unknown>({
    name: "kubebuilder:title",
    targets: FIELD_AND_TYPE,
    args: value(t.any),
    help: "the schema title",
    schema: {
      apply: (s, v) => {
        if (v === undefined || v === null) return;
        need(typeof v === "string", `expected string, got ${typeof v}`);
        s.title = v as string;
      },
    },
  }),
  defineMarker<Record<string, ArgValue>>({
    name: "kubebuilder:externalDocs",
    targets: FIELD_AND_TYPE,
    args: {
      kind: "fields",
      fields: { url: { type: t.string }, description: { type: t.string, optional: true } },
    },
    help: "a link to external documentation",
    schema: {
      apply: (s, v) => {
        const url = v.url as string;
        need(
          /^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$|^\/\S*$/.test(url),
          `invalid url "${url}" in kubebuilder:externalDocs marker`,
        );
        s.externalDocs = { url, ...(v.description ? { description: v.description as string } : {}) };
      },
    },
  }),
];

/** A default must fit the field's schema (type, enum, nested fields). */
function defaultFits(name: string) {
  return (value: unknown, { schema }: CheckedNode): MarkerProblem[] => {
    if (value === undefined || schema.default === undefined) return [];
    const problem = mismatch(schema.default, schema, "");
    return problem
      ? [
          {
            message: `+${name}=${JSON.stringify(schema.default)}: ${problem}`,
            fix: "give a default of the field's type",
          },
        ]
      : [];
  };
}

// The syntax Kubernetes accepts includes optional field selection (`self.?x.orValue(...)`).
const celSyntax = new Environment({ enableOptionalTypes: true });
const parseCel = (expression: string) => celSyntax.parse(expression);

/** The check of +kubebuilder:validation:XValidation: its arguments as the rule they make. */
function checkRule(v: Record<string, ArgValue>, node: CheckedNode): MarkerProblem[] {
  return celRuleProblems(
    {
      rule: String(v.rule),
      ...(typeof v.messageExpression === "string" && v.messageExpression !== ""
        ? { messageExpression: v.messageExpression }
        : {}),
      ...(v.optionalOldSelf === true ? { optionalOldSelf: true } : {}),
    },
    node,
  );
}

/**
 * kbts' generate-time check of one CEL rule on the schema node that carries it: the rule must parse,
 * as must its messageExpression, and both must type-check against the schema as the API server
 * compiles them (only certain problems are reported: it must never refuse what the API server
 * accepts, which testdata/cel-agreement checks on every rule in testdata).
 */
export function celRuleProblems(
  { rule, messageExpression, optionalOldSelf }: ValidationRule,
  { schema, owner, isRoot }: CheckedNode,
): MarkerProblem[] {
  try {
    parseCel(rule);
  } catch (err) {
    return [
      {
        message: `CEL rule ${JSON.stringify(rule)} does not parse: ${(err as Error).message.split("\n")[0]}`,
        fix: "fix the rule's syntax (see https://kubernetes.io/docs/reference/using-api/cel/)",
      },
    ];
  }
  const problems: MarkerProblem[] = [];
  if (messageExpression) {
    try {
      parseCel(messageExpression);
    } catch (err) {
      problems.push({
        message: `CEL messageExpression ${JSON.stringify(messageExpression)} does not parse: ${(err as Error).message.split("\n")[0]}`,
        fix: "fix the expression's syntax",
      });
    }
  }
  const typeProblems = ruleTypeProblems(
    {
      rule,
      ...(messageExpression ? { messageExpression } : {}),
      ...(optionalOldSelf ? { optionalOldSelf: true } : {}),
    },
    schema,
    isRoot,
  );
  const typeName = owner.split(".").pop() ?? owner;
  for (const p of typeProblems) {
    const field = /field "([^"]+)"/.exec(p.message)?.[1];
    const guess = field
      ? closestField(
          field,
          Object.keys(schema.properties ?? {}).map((k) => celPropertyName(k) ?? k),
        )
      : undefined;
    const text = p.expression === "rule" ? rule : String(messageExpression);
    problems.push({
      message: `CEL ${p.expression} ${JSON.stringify(text)} on ${typeName}: ${p.message}${guess ? ` (did you mean self.${guess}?)` : ""}; the API server would refuse the CRD`,
      fix:
        p.expression === "rule"
          ? "fix the rule of +kubebuilder:validation:XValidation (it must be a bool over self/oldSelf; see https://kubernetes.io/docs/reference/using-api/cel/)"
          : "make messageExpression of +kubebuilder:validation:XValidation a string expression",
    });
  }
  return problems;
}
