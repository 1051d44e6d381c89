import type { JSONSchemaProps } from "@kbts/runtime";

/**
 * Merging a field's own schema into the schema of the named type it refers to, as controller-gen's
 * flattener does (pkg/crd/flatten.go preserveFields + flattenAllOfInto): description, title, example
 * and externalDocs come from the field when set; the type's enum wins; rules are field-first;
 * conflicting scalar validations are kept side by side under allOf.
 */
type Key = keyof JSONSchemaProps;
const DOC_KEYS: Key[] = ["description", "title", "example", "externalDocs"];
/** Fields that are pointers or slices in Go: never "equal", so a conflict always resolves. */
const COMPARABLE: Set<Key> = new Set([
  "type",
  "format",
  "pattern",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "uniqueItems",
  "nullable",
  "x-kubernetes-embedded-resource",
  "x-kubernetes-int-or-string",
]);

export class FlattenError extends Error {}

export function mergeInto(dst: JSONSchemaProps, src: JSONSchemaProps): void {
  for (const embedded of src.allOf ?? []) mergeInto(dst, embedded);
  const srcRem: JSONSchemaProps = {};
  const dstRem: JSONSchemaProps = {};
  let hoisted = false;
  const d = dst as Record<string, unknown>;
  for (const key of Object.keys(src) as Key[]) {
    if (key === "allOf" || DOC_KEYS.includes(key)) continue;
    const sv = src[key] as unknown;
    if (key === "enum") {
      if ((src.enum?.length ?? 0) > 0 && (dst.enum?.length ?? 0) === 0) dst.enum = [...(src.enum ?? [])];
      continue;
    }
    if (sv === undefined || sv === false || sv === "") continue;
    const dv = d[key];
    if (dv === undefined || dv === false || dv === "") {
      d[key] = sv;
      continue;
    }
    if (COMPARABLE.has(key) && dv === sv) continue;
    switch (key) {
      case "properties": {
        const dp = dst.properties as Record<string, JSONSchemaProps>;
        for (const [k, v] of Object.entries(src.properties ?? {})) {
          const existing = dp[k];
          if (!existing) dp[k] = v;
          else mergeInto(existing, v);
        }
        break;
      }
      case "required":
        dst.required = [...(dst.required ?? []), ...(src.required ?? [])];
        break;
      case "minProperties":
      case "maxProperties":
        if (dv === sv) break;
        (srcRem as Record<string, unknown>)[key] = sv;
        (dstRem as Record<string, unknown>)[key] = dv;
        delete d[key];
        hoisted = true;
        break;
      case "type":
        throw new FlattenError(
          `conflicting types in allOf branches in schema: ${String(dv)} vs ${String(sv)}`,
        );
      case "additionalProperties": {
        if (typeof sv !== "object") break;
        const target = typeof dv === "object" ? (dv as JSONSchemaProps) : {};
        mergeInto(target, sv as JSONSchemaProps);
        dst.additionalProperties = target;
        break;
      }
      case "x-kubernetes-preserve-unknown-fields":
      case "x-kubernetes-map-type":
      case "x-kubernetes-list-type":
      case "x-kubernetes-list-map-keys":
        d[key] = sv;
        break;
      case "x-kubernetes-validations":
        dst["x-kubernetes-validations"] = [
          ...(src["x-kubernetes-validations"] ?? []),
          ...(dst["x-kubernetes-validations"] ?? []),
        ];
        break;
      default:
        (srcRem as Record<string, unknown>)[key] = sv;
        (dstRem as Record<string, unknown>)[key] = dv;
        delete d[key];
        hoisted = true;
    }
  }
  if (hoisted) dst.allOf = [...(dst.allOf ?? []), dstRem, srcRem];
  if (dst.required && dst.required.length > 0) dst.required = [...new Set(dst.required)].sort();
}

/**
 * The schema of a field of named type: the type's schema with the field's own schema merged in.
 * `typeSchema` is taken apart (the result holds its parts): pass a copy of your own. The callers'
 * schemas are copies already, and copying them again was a tenth of building a CRD.
 */
export function flattenNamed(typeSchema: JSONSchemaProps, fieldSchema: JSONSchemaProps): JSONSchemaProps {
  const out: JSONSchemaProps = {};
  for (const k of DOC_KEYS) {
    const fv = fieldSchema[k];
    const tv = typeSchema[k];
    const v = fv !== undefined && fv !== "" ? fv : tv;
    if (v !== undefined && v !== "") (out as Record<string, unknown>)[k] = v;
  }
  const body = typeSchema;
  for (const k of DOC_KEYS) delete body[k];
  mergeInto(out, body);
  const field = { ...fieldSchema };
  for (const k of DOC_KEYS) delete field[k];
  mergeInto(out, field);
  return out;
}
