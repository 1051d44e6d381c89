import type { JsonValue } from "../yaml/emit.js";

/**
 * The `patch=` of a webhook marker, applied as controller-tools applies it: a strategic merge patch
 * on the one generated webhook (admissionregistration/v1 MutatingWebhook or ValidatingWebhook),
 * with the patch strategies of those Go types (objects merge field by field, `null` removes a field,
 * matchConditions merge by name, every other list is replaced), the `$patch`, `$retainKeys`,
 * `$setElementOrder/` and `$deleteFromPrimitiveList/` directives, and unknown fields or values of
 * the wrong type refused (controller-tools decodes the patch strictly into the Go type).
 */

type Shape =
  | { kind: "struct"; name: string; fields: Record<string, Field> }
  | { kind: "map" }
  | { kind: "list"; item: Shape; mergeKey?: string }
  | { kind: "string" | "int" | "bytes" };

interface Field {
  shape: Shape;
  /** Go's `omitempty` on a value (not pointer) field: an empty string, list or map is not written. */
  omitEmpty?: boolean;
  /** A non-pointer string without omitempty: Go writes "" when the patch leaves it unset. */
  zero?: boolean;
}

const str: Shape = { kind: "string" };
const strings: Shape = { kind: "list", item: str };
const f = (shape: Shape, extra: Omit<Field, "shape"> = {}): Field => ({ shape, ...extra });

const labelSelector: Shape = {
  kind: "struct",
  name: "LabelSelector",
  fields: {
    matchLabels: f({ kind: "map" }, { omitEmpty: true }),
    matchExpressions: f(
      {
        kind: "list",
        item: {
          kind: "struct",
          name: "LabelSelectorRequirement",
          fields: {
            key: f(str, { zero: true }),
            operator: f(str, { zero: true }),
            values: f(strings, { omitEmpty: true }),
          },
        },
      },
      { omitEmpty: true },
    ),
  },
};

const clientConfig: Shape = {
  kind: "struct",
  name: "WebhookClientConfig",
  fields: {
    url: f(str),
    service: f({
      kind: "struct",
      name: "ServiceReference",
      fields: {
        namespace: f(str, { zero: true }),
        name: f(str, { zero: true }),
        path: f(str),
        port: f({ kind: "int" }),
      },
    }),
    caBundle: f({ kind: "bytes" }, { omitEmpty: true }),
  },
};

const rule: Shape = {
  kind: "struct",
  name: "RuleWithOperations",
  fields: {
    operations: f(strings, { omitEmpty: true }),
    apiGroups: f(strings, { omitEmpty: true }),
    apiVersions: f(strings, { omitEmpty: true }),
    resources: f(strings, { omitEmpty: true }),
    scope: f(str),
  },
};

function webhookShape(mutating: boolean): Shape {
  return {
    kind: "struct",
    name: mutating ? "MutatingWebhook" : "ValidatingWebhook",
    fields: {
      name: f(str, { zero: true }),
      clientConfig: f(clientConfig),
      rules: f({ kind: "list", item: rule }, { omitEmpty: true }),
      failurePolicy: f(str),
      matchPolicy: f(str),
      namespaceSelector: f(labelSelector),
      objectSelector: f(labelSelector),
      sideEffects: f(str),
      timeoutSeconds: f({ kind: "int" }),
      admissionReviewVersions: f(strings),
      ...(mutating ? { reinvocationPolicy: f(str) } : {}),
      matchConditions: f(
        {
          kind: "list",
          mergeKey: "name",
          item: {
            kind: "struct",
            name: "MatchCondition",
            fields: { name: f(str, { zero: true }), expression: f(str, { zero: true }) },
          },
        },
        { omitEmpty: true },
      ),
    },
  };
}

/** A patch that cannot be applied: what is wrong, in words naming the field. */
export class PatchError extends Error {}

type Obj = { [k: string]: JsonValue };
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const SET_ORDER = "$setElementOrder/";
const DELETE_FROM = "$deleteFromPrimitiveList/";

/** The webhook with `patchText` applied; throws PatchError for an invalid patch. */
export function applyWebhookPatch(webhook: Obj, patchText: string, mutating: boolean): Obj {
  let patch: unknown;
  try {
    patch = JSON.parse(patchText);
  } catch (err) {
    throw new PatchError(`patch is not JSON: ${(err as Error).message}`);
  }
  if (!isObj(patch))
    throw new PatchError("patch must be a JSON object (the fields of the webhook to change)");
  const shape = webhookShape(mutating);
  validate(patch, shape, "");
  return normalize(merge(webhook, patch, shape) ?? {}, shape) as Obj;
}

function describe(v: JsonValue): string {
  return JSON.stringify(v);
}

/** Refuses what controller-tools' strict decoding refuses: unknown fields, wrong types, bad directives. */
function validate(value: JsonValue, shape: Shape, path: string): void {
  const at = (key: string) => (path ? `${path}.${key}` : key);
  switch (shape.kind) {
    case "string":
    case "bytes":
      if (typeof value !== "string") throw new PatchError(`${path} must be a string, got ${describe(value)}`);
      if (shape.kind === "bytes" && !/^[A-Za-z0-9+/]*={0,2}$/.test(value))
        throw new PatchError(`${path} must be base64, got ${describe(value)}`);
      return;
    case "int":
      if (typeof value !== "number" || !Number.isInteger(value))
        throw new PatchError(`${path} must be an integer, got ${describe(value)}`);
      return;
    case "map":
      if (!isObj(value)) throw new PatchError(`${path} must be an object of strings, got ${describe(value)}`);
      for (const [k, v] of Object.entries(value)) {
        if (k === "$patch") continue;
        if (v !== null && typeof v !== "string")
          throw new PatchError(`${at(k)} must be a string, got ${describe(v)}`);
      }
      return;
    case "list":
      if (!Array.isArray(value)) throw new PatchError(`${path} must be a list, got ${describe(value)}`);
      for (const [i, item] of value.entries()) {
        if (isObj(item) && typeof item.$patch === "string") {
          if (!shape.mergeKey && item.$patch !== "replace")
            throw new PatchError(`${path}[${i}]: $patch: ${item.$patch} needs a list merged by key`);
          if (item.$patch === "replace" || item.$patch === "delete") {
            const { $patch: _, ...rest } = item;
            if (item.$patch === "delete" || Object.keys(rest).length === 0) continue;
          }
        }
        if (shape.mergeKey && isObj(item) && !(shape.mergeKey in item))
          throw new PatchError(`${path}[${i}] has no ${shape.mergeKey}, the key this list is merged by`);
        validate(item, shape.item, `${path}[${i}]`);
      }
      return;
    case "struct":
      if (!isObj(value)) throw new PatchError(`${path} must be an object, got ${describe(value)}`);
      for (const [k, v] of Object.entries(value)) {
        if (k === "$patch") {
          if (v !== "replace" && v !== "delete")
            throw new PatchError(`${at(k)}: unknown directive ${describe(v)} (delete or replace)`);
          continue;
        }
        if (k === "$retainKeys") {
          if (!Array.isArray(v) || !v.every((x) => typeof x === "string" && x in shape.fields))
            throw new PatchError(`${at(k)} must list fields of ${shape.name}`);
          continue;
        }
        const directive = [SET_ORDER, DELETE_FROM].find((d) => k.startsWith(d));
        const name = directive ? k.slice(directive.length) : k;
        const field = shape.fields[name];
        if (!field)
          throw new PatchError(
            `unknown field "${at(name)}": ${shape.name} has no field "${name}" (its fields: ${Object.keys(shape.fields).join(", ")})`,
          );
        if (directive) {
          if (field.shape.kind !== "list") throw new PatchError(`${at(k)}: ${name} is not a list`);
          if (!Array.isArray(v)) throw new PatchError(`${at(k)} must be a list`);
          continue;
        }
        if (v !== null) validate(v, field.shape, at(k));
      }
      return;
  }
}

/** Strategic merge of `patch` into `original` for `shape`; undefined when the patch deletes it. */
function merge(original: JsonValue | undefined, patch: JsonValue, shape: Shape): JsonValue | undefined {
  if (shape.kind === "list") return mergeList(original, patch as JsonValue[], shape, undefined);
  if ((shape.kind !== "struct" && shape.kind !== "map") || !isObj(patch)) return patch;
  if (patch.$patch === "delete") return undefined;
  if (patch.$patch === "replace") return withoutDirectives(patch);
  let out: Obj = isObj(original) ? { ...original } : {};
  const retain = patch.$retainKeys;
  if (Array.isArray(retain))
    out = Object.fromEntries(Object.entries(out).filter(([k]) => retain.includes(k)));
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith("$")) continue;
    if (v === null) {
      delete out[k];
      continue;
    }
    const fieldShape = shape.kind === "struct" ? (shape.fields[k] as Field).shape : str;
    const order = patch[`${SET_ORDER}${k}`];
    const merged =
      fieldShape.kind === "list"
        ? mergeList(out[k], v as JsonValue[], fieldShape, Array.isArray(order) ? order : undefined)
        : merge(out[k], v, fieldShape);
    if (merged === undefined) delete out[k];
    else out[k] = merged;
  }
  for (const [k, v] of Object.entries(patch)) {
    const field = k.startsWith(DELETE_FROM) ? k.slice(DELETE_FROM.length) : undefined;
    const list = field === undefined ? undefined : out[field];
    if (field !== undefined && Array.isArray(list) && Array.isArray(v))
      out[field] = list.filter((x) => !v.some((d) => JSON.stringify(d) === JSON.stringify(x)));
  }
  return out;
}

/** A list: replaced, unless it merges by key (matchConditions), where items merge, append or go. */
function mergeList(
  original: JsonValue | undefined,
  patch: JsonValue[],
  shape: Extract<Shape, { kind: "list" }>,
  order: JsonValue[] | undefined,
): JsonValue[] {
  const key = shape.mergeKey;
  const replace = patch.some((i) => isObj(i) && i.$patch === "replace");
  const items = patch.filter((i) => !(isObj(i) && i.$patch === "replace" && Object.keys(i).length === 1));
  if (!key || replace || !Array.isArray(original)) {
    return items
      .filter((i) => !(isObj(i) && i.$patch === "delete"))
      .map((i) => (isObj(i) ? withoutDirectives(i) : i));
  }
  let out = [...original];
  for (const item of items) {
    if (!isObj(item)) continue;
    const at = out.findIndex((o) => isObj(o) && o[key] === item[key]);
    if (item.$patch === "delete") {
      out = out.filter((o) => !(isObj(o) && o[key] === item[key]));
      continue;
    }
    if (at < 0) out.push(withoutDirectives(item));
    else out[at] = merge(out[at], item, shape.item) ?? {};
  }
  if (order) {
    const rank = (o: JsonValue) => order.findIndex((k) => isObj(k) && isObj(o) && k[key] === o[key]);
    out.sort((a, b) => (rank(a) < 0 ? Infinity : rank(a)) - (rank(b) < 0 ? Infinity : rank(b)));
  }
  return out;
}

function withoutDirectives(v: Obj): Obj {
  return Object.fromEntries(Object.entries(v).filter(([k]) => !k.startsWith("$")));
}

/** The patched webhook as the Go type round-trips it: omitempty values dropped, zero strings written. */
function normalize(value: JsonValue, shape: Shape): JsonValue {
  if (shape.kind === "list" && Array.isArray(value)) return value.map((i) => normalize(i, shape.item));
  if (shape.kind !== "struct" || !isObj(value)) return value;
  const out: Obj = {};
  for (const [name, field] of Object.entries(shape.fields)) {
    const v = value[name];
    if (v === undefined || v === null) {
      if (field.zero) out[name] = "";
      continue;
    }
    const empty =
      v === "" || (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);
    if (field.omitEmpty && empty && field.shape.kind !== "struct") continue;
    out[name] = normalize(v, field.shape);
  }
  return out;
}
