import type { JSONSchemaProps } from "@kbts/runtime";
import type { MarkerProblem } from "../../markers/registry.js";
import { closest } from "../../markers/spelling.js";

/** What marker checks share: finding a field in a finished schema, and a value against a schema. */

/** The field name nearest to `name`, for "did you mean" in a check. */
export const closestField = (name: string, fields: string[]): string | undefined =>
  closest(name, fields, { within: (n) => Math.max(2, Math.floor(n.length / 2)) });

/** A schema that accepts fields it does not declare, so nothing under it can be checked. */
export const isOpen = (s: JSONSchemaProps) =>
  s["x-kubernetes-preserve-unknown-fields"] === true ||
  (!s.properties && s.type === "object") ||
  s.type === undefined;

/** A JSONPath as printer columns and selectable fields use them: `.a.b[0].c`, `.a[?(@.x=="y")].b`. */
export function checkJsonPath(path: string, root: JSONSchemaProps): MarkerProblem[] {
  const segments = path
    .replace(/\[[^\]]*\]/g, "[]")
    .split(/(?=\.)|(?=\[\])/)
    .filter((s) => s !== "");
  let node: JSONSchemaProps = root;
  let walked = "";
  for (const seg of segments) {
    if (seg === "[]") {
      if (node.type === "array" && node.items) node = node.items;
      else if (!isOpen(node)) return [{ message: `${path}: ${walked || "."} is not a list` }];
      walked += seg;
      continue;
    }
    const name = seg.slice(1);
    if (name === "" || isOpen(node)) return [];
    const next =
      node.properties?.[name] ??
      (typeof node.additionalProperties === "object" ? node.additionalProperties : undefined);
    if (!next) {
      const guess = closestField(name, Object.keys(node.properties ?? {}));
      return [
        {
          message: `JSONPath ${path}: ${walked || "the object"} has no field "${name}"${guess ? ` (did you mean ${guess}?)` : ""}`,
          fix: `point it at an existing field${guess ? `, e.g. ${walked}.${guess}` : ""}`,
        },
      ];
    }
    node = next;
    walked += seg;
  }
  return [];
}

/** Why `value` does not fit `schema` (type, enum, nested properties), or undefined. */
export function mismatch(value: unknown, schema: JSONSchemaProps, path: string): string | undefined {
  const where = path ? ` at ${path}` : "";
  if (schema["x-kubernetes-int-or-string"]) {
    return typeof value === "string" || Number.isInteger(value)
      ? undefined
      : `expected an integer or a string${where}`;
  }
  if (value === null) return schema.nullable ? undefined : `null is not allowed${where}`;
  switch (schema.type) {
    case "string":
      if (typeof value !== "string") return `expected a string${where}, got ${JSON.stringify(value)}`;
      break;
    case "integer":
      if (!Number.isInteger(value)) return `expected an integer${where}, got ${JSON.stringify(value)}`;
      break;
    case "number":
      if (typeof value !== "number") return `expected a number${where}, got ${JSON.stringify(value)}`;
      break;
    case "boolean":
      if (typeof value !== "boolean") return `expected true or false${where}, got ${JSON.stringify(value)}`;
      break;
    case "array":
      if (!Array.isArray(value)) return `expected a list${where}, got ${JSON.stringify(value)}`;
      if (schema.items) {
        for (const [i, v] of value.entries()) {
          const p = mismatch(v, schema.items, `${path}[${i}]`);
          if (p) return p;
        }
      }
      break;
    case "object":
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        return `expected an object${where}, got ${JSON.stringify(value)}`;
      }
      for (const [k, v] of Object.entries(value)) {
        const sub =
          schema.properties?.[k] ??
          (typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined);
        if (!sub) {
          if (schema.properties && !schema["x-kubernetes-preserve-unknown-fields"])
            return `unknown field "${k}"${where}`;
          continue;
        }
        const p = mismatch(v, sub, `${path}.${k}`);
        if (p) return p;
      }
      break;
  }
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    return `${JSON.stringify(value)} is not one of the allowed values ${JSON.stringify(schema.enum)}${where}`;
  }
  return undefined;
}
