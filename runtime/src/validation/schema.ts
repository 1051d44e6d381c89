import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { JSONSchemaProps } from "../api/core.js";
import { jsonClone } from "../internal/json.js";
import type { FieldError } from "./fielderrors.js";

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Child path helpers in apimachinery's field.Path notation. */
export const child = (path: string, key: string): string => (path ? `${path}.${key}` : key);
export const index = (path: string, i: number): string => `${path}[${i}]`;

/**
 * Drops fields the schema does not declare, as the API server prunes on every write (not inside
 * x-kubernetes-preserve-unknown-fields, and keeping apiVersion/kind/metadata of embedded resources).
 * Returns the paths pruned (the API server warns `unknown field "spec.x"`).
 */
export function prune(value: unknown, schema: JSONSchemaProps, path = "", root = true): string[] {
  const pruned: string[] = [];
  if (Array.isArray(value)) {
    const items = schema.items;
    if (items)
      for (const [i, item] of value.entries()) pruned.push(...prune(item, items, index(path, i), false));
    return pruned;
  }
  if (!isObject(value)) return pruned;
  const keepMeta = root || schema["x-kubernetes-embedded-resource"] === true;
  for (const key of Object.keys(value)) {
    if (keepMeta && (key === "apiVersion" || key === "kind" || key === "metadata")) continue;
    const sub = schema.properties?.[key];
    if (sub) {
      pruned.push(...prune(value[key], sub, child(path, key), false));
    } else if (isObject(schema.additionalProperties)) {
      pruned.push(...prune(value[key], schema.additionalProperties, child(path, key), false));
    } else if (!schema["x-kubernetes-preserve-unknown-fields"] && schema.additionalProperties !== true) {
      delete value[key];
      pruned.push(child(path, key));
    }
  }
  return pruned;
}

/** Applies `default`s top-down where a field is absent (or null and not nullable), as the API server does. */
export function applyDefaults(value: unknown, schema: JSONSchemaProps): void {
  if (Array.isArray(value)) {
    if (schema.items) for (const item of value) applyDefaults(item, schema.items);
    return;
  }
  if (!isObject(value)) return;
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    const missing = value[key] === undefined || (value[key] === null && !sub.nullable);
    if (missing && sub.default !== undefined) value[key] = jsonClone(sub.default);
    if (value[key] !== undefined) applyDefaults(value[key], sub);
  }
  if (isObject(schema.additionalProperties)) {
    for (const key of Object.keys(value)) {
      if (schema.properties?.[key]) continue;
      applyDefaults(value[key], schema.additionalProperties);
    }
  }
}

/** Translates a structural schema to plain JSON Schema for ajv (OpenAPI v3.0 → draft 7 details, int-or-string, nullable). */
function toJsonSchema(s: JSONSchemaProps, root = false): Json {
  const out: Json = {};
  const copy = [
    "format",
    "required",
    "minimum",
    "maximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
  ] as const;
  for (const k of copy) if (s[k] !== undefined) out[k] = s[k];
  if (s.exclusiveMinimum && s.minimum !== undefined) {
    out.exclusiveMinimum = s.minimum;
    delete out.minimum;
  }
  if (s.exclusiveMaximum && s.maximum !== undefined) {
    out.exclusiveMaximum = s.maximum;
    delete out.maximum;
  }
  let types: string[] | undefined = s.type ? [s.type] : undefined;
  if (s["x-kubernetes-int-or-string"]) types = ["integer", "string"];
  if (types && s.nullable) types = [...types, "null"];
  if (types) out.type = types.length === 1 ? types[0] : types;
  if (s.enum) out.enum = s.nullable ? [...s.enum, null] : s.enum;
  if (s.properties) {
    const props: Json = {};
    for (const [k, v] of Object.entries(s.properties)) props[k] = toJsonSchema(v);
    out.properties = props;
  }
  if (root || s["x-kubernetes-embedded-resource"]) {
    // metadata is validated by the API server's own rules, not the CRD schema.
    const props = (out.properties ?? {}) as Json;
    for (const k of ["apiVersion", "kind", "metadata"]) delete props[k];
    out.properties = props;
  }
  if (isObject(s.additionalProperties)) out.additionalProperties = toJsonSchema(s.additionalProperties);
  if (s.items) out.items = toJsonSchema(s.items);
  for (const k of ["allOf", "anyOf", "oneOf"] as const) {
    const list = s[k];
    if (list) out[k] = list.map((x) => toJsonSchema(x));
  }
  if (s.not) out.not = toJsonSchema(s.not);
  return out;
}

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

let sharedAjv: Ajv | undefined;

function newAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false, validateFormats: true });
  // The formats the API server checks; anything else passes, as there.
  ajv.addFormat("int32", { type: "number", validate: (n: number) => n >= INT32.min && n <= INT32.max });
  ajv.addFormat("int64", { type: "number", validate: () => true });
  for (const f of ["float", "double"]) ajv.addFormat(f, { type: "number", validate: () => true });
  ajv.addFormat("date-time", RFC3339);
  ajv.addFormat("datetime", RFC3339);
  ajv.addFormat("date", /^\d{4}-\d{2}-\d{2}$/);
  ajv.addFormat("byte", /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
  ajv.addFormat("uuid", /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/);
  ajv.addFormat("ipv4", /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/);
  for (const f of [
    "password",
    "int-or-string",
    "quantity",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv6",
    "cidr",
    "mac",
  ]) {
    ajv.addFormat(f, () => true);
  }
  return ajv;
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** ajv's instancePath ("/spec/items/0/name") in field.Path form ("spec.items[0].name"). */
function fieldPath(instancePath: string, data: unknown): string {
  let path = "";
  let cur: unknown = data;
  for (const raw of instancePath.split("/").slice(1)) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(cur)) {
      path = index(path, Number(seg));
      cur = cur[Number(seg)];
    } else {
      path = child(path, seg);
      cur = isObject(cur) ? cur[seg] : undefined;
    }
  }
  return path;
}

function valueAt(instancePath: string, data: unknown): unknown {
  let cur: unknown = data;
  for (const raw of instancePath.split("/").slice(1)) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    cur = Array.isArray(cur) ? cur[Number(seg)] : isObject(cur) ? cur[seg] : undefined;
  }
  return cur;
}

/** kube-openapi's message for one ajv error, mapped to the field error apiextensions makes of it. */
function toFieldError(e: ErrorObject, data: unknown, prefix: string): FieldError | undefined {
  const fe = bareFieldError(e, data);
  // Messages name the field relative to what was validated ("allocated in body" for a status
  // write), while the error's path is from the object's root ("status.allocated").
  if (fe && prefix) fe.field = fe.field ? child(prefix, fe.field) : fe.field;
  return fe;
}

function bareFieldError(e: ErrorObject, data: unknown): FieldError | undefined {
  const field = fieldPath(e.instancePath, data);
  const value = valueAt(e.instancePath, data);
  const p = e.params as Record<string, unknown>;
  const inBody = `${field} in body`;
  switch (e.keyword) {
    case "required":
      return { type: "Required", field: child(field, String(p.missingProperty)) };
    case "type": {
      const actual = typeName(value);
      const expected = Array.isArray(p.type)
        ? (p.type as string[]).filter((t) => t !== "null").join(",")
        : String(p.type);
      return {
        type: "TypeInvalid",
        field,
        value: actual,
        detail: `${inBody} must be of type ${expected}: ${JSON.stringify(actual)}`,
      };
    }
    case "enum":
      return {
        type: "NotSupported",
        field,
        value,
        supported: (p.allowedValues as unknown[]).filter((v) => v !== null),
      };
    case "minimum":
      return {
        type: "Invalid",
        field,
        value,
        detail: `${inBody} should be greater than or equal to ${p.limit}`,
      };
    case "exclusiveMinimum":
      return { type: "Invalid", field, value, detail: `${inBody} should be greater than ${p.limit}` };
    case "maximum":
      return {
        type: "Invalid",
        field,
        value,
        detail: `${inBody} should be less than or equal to ${p.limit}`,
      };
    case "exclusiveMaximum":
      return { type: "Invalid", field, value, detail: `${inBody} should be less than ${p.limit}` };
    case "multipleOf":
      return { type: "Invalid", field, value, detail: `${inBody} should be a multiple of ${p.multipleOf}` };
    case "minLength":
      return { type: "Invalid", field, value, detail: `${inBody} should be at least ${p.limit} chars long` };
    case "maxLength":
      return { type: "TooLong", field, value, detail: `may not be more than ${p.limit} bytes` };
    case "pattern":
      return { type: "Invalid", field, value, detail: `${inBody} should match '${p.pattern}'` };
    case "minItems":
      return {
        type: "Invalid",
        field,
        value: (value as unknown[]).length,
        detail: `${inBody} should have at least ${p.limit} items`,
      };
    case "maxItems":
      return {
        type: "TooMany",
        field,
        value: (value as unknown[]).length,
        detail: `must have at most ${p.limit} items`,
      };
    case "minProperties":
      return {
        type: "Invalid",
        field,
        value: Object.keys(value as Json).length,
        detail: `${inBody} should have at least ${p.limit} properties`,
      };
    case "maxProperties":
      return {
        type: "TooMany",
        field,
        value: Object.keys(value as Json).length,
        detail: `must have at most ${p.limit} items`,
      };
    case "format":
      if (p.format === "int32" || p.format === "int64") {
        // The API server's number-format check reports without a field path.
        return {
          type: "Invalid",
          field: "",
          value: "",
          detail: `Checked value must be of type integer with format ${p.format} in ${field}`,
        };
      }
      return {
        type: "Invalid",
        field,
        value,
        detail: `${inBody} must be of type ${p.format}: ${JSON.stringify(value)}`,
      };
    case "uniqueItems":
      return { type: "Invalid", field, value, detail: `${inBody} shouldn't contain duplicates` };
    case "if":
    case "anyOf":
    case "allOf":
      return undefined; // the failing branch's own errors are reported
    case "oneOf":
      return {
        type: "Invalid",
        field,
        value,
        detail: `${inBody} must validate one and only one schema (oneOf)`,
      };
    case "not":
      return { type: "Invalid", field, value, detail: `${inBody} must not validate the schema (not)` };
    default:
      return { type: "Invalid", field, value, detail: `${inBody} ${e.message ?? "is invalid"}` };
  }
}

/** x-kubernetes-list-type set/map uniqueness, which JSON Schema cannot express. */
function listTypeErrors(value: unknown, schema: JSONSchemaProps, path: string, out: FieldError[]): void {
  if (Array.isArray(value)) {
    const listType = schema["x-kubernetes-list-type"];
    const seen = new Set<string>();
    value.forEach((item, i) => {
      let key: string | undefined;
      if (listType === "set") key = JSON.stringify(item);
      if (listType === "map" && isObject(item)) {
        const keys = schema["x-kubernetes-list-map-keys"] ?? [];
        key = JSON.stringify(keys.map((k) => item[k] ?? schema.items?.properties?.[k]?.default ?? null));
      }
      if (key !== undefined) {
        if (seen.has(key)) {
          const dup =
            listType === "set"
              ? item
              : Object.fromEntries(
                  (schema["x-kubernetes-list-map-keys"] ?? []).map((k) => [k, (item as Json)[k]]),
                );
          out.push({ type: "Duplicate", field: index(path, i), value: dup });
        }
        seen.add(key);
      }
      if (schema.items) listTypeErrors(item, schema.items, index(path, i), out);
    });
    return;
  }
  if (!isObject(value)) return;
  for (const [key, v] of Object.entries(value)) {
    const sub =
      schema.properties?.[key] ??
      (isObject(schema.additionalProperties) ? schema.additionalProperties : undefined);
    if (sub) listTypeErrors(v, sub, child(path, key), out);
  }
}

/**
 * Validates objects against one CRD version's schema (compiled once). With `prefix` it validates
 * one subtree (status writes validate only .status), reporting paths from the object's root.
 */
export class SchemaValidator {
  private readonly validate: ValidateFunction;
  constructor(
    readonly schema: JSONSchemaProps,
    private readonly prefix = "",
  ) {
    sharedAjv ??= newAjv();
    this.validate = sharedAjv.compile(toJsonSchema(schema, prefix === ""));
  }

  errors(obj: unknown): FieldError[] {
    const out: FieldError[] = [];
    if (!this.validate(obj)) {
      for (const e of this.validate.errors ?? []) {
        const fe = toFieldError(e, obj, this.prefix);
        if (fe) out.push(fe);
      }
    }
    listTypeErrors(obj, this.schema, this.prefix, out);
    return out;
  }
}

const validators = new Map<string, SchemaValidator>();

/** One compiled validator per distinct schema: fake clients made per test reuse it (ajv compiles are slow). */
export function validatorFor(schema: JSONSchemaProps, prefix = ""): SchemaValidator {
  const key = `${prefix}\0${JSON.stringify(schema)}`;
  let v = validators.get(key);
  if (!v) {
    v = new SchemaValidator(schema, prefix);
    validators.set(key, v);
  }
  return v;
}
