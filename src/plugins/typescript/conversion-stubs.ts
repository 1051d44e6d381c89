import { isDeepStrictEqual } from "node:util";
import type { JSONSchemaProps } from "@kbts/runtime";
import { KbtsError } from "../../errors.js";
import { generateManifests, ManifestErrors, type ManifestResult } from "../../manifests/generate.js";
import type { ResourceModel } from "../../project/resource.js";

/**
 * The bodies of a spoke's scaffolded `convertTo`/`convertFrom`: the kind's versions are compared by
 * their CRD schemas (what `kbts manifests` builds from the types on disk), so fields with the same
 * name and schema are copied, and each field that differs, or exists on one side only, gets a
 * `TODO(user)` where the user decides. The stubs compile as written: a field the destination requires
 * and the source lacks gets its type's zero value beside its TODO.
 */

/** Root-level fields every object has; conversion keeps metadata and sets apiVersion/kind itself. */
const ENVELOPE = new Set(["apiVersion", "kind", "metadata"]);

/** Each version's root schema of the kind's CRD, from the types as they are on disk. */
export async function versionSchemas(root: string, r: ResourceModel): Promise<Map<string, JSONSchemaProps>> {
  let crds: ManifestResult["crds"];
  try {
    ({ crds } = await generateManifests({ root, paths: ["api/**/*.ts"] }));
  } catch (err) {
    if (!(err instanceof ManifestErrors)) throw err;
    throw new KbtsError(
      `the API types do not build a CRD, so the conversion stubs cannot be written:\n  ${err.format().replaceAll("\n", "\n  ")}`,
      {
        where: "api/",
        fix: "fix the types (make manifests shows the same errors), then run create webhook again",
      },
    );
  }
  const crd = [...crds.values()].find(
    (c) => c.spec.group === r.qualifiedGroup && c.spec.names.plural === r.plural,
  );
  const out = new Map<string, JSONSchemaProps>();
  for (const v of crd?.spec.versions ?? []) out.set(v.name, v.schema.openAPIV3Schema);
  return out;
}

/** The schema without descriptions: two versions document a field differently but store it alike. */
function shape(schema: JSONSchemaProps | undefined): unknown {
  if (schema === undefined || schema === null || typeof schema !== "object") return schema;
  if (Array.isArray(schema)) return schema.map((s) => shape(s as JSONSchemaProps));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "description") continue;
    out[k] = typeof v === "object" && v !== null ? shape(v as JSONSchemaProps) : v;
  }
  return out;
}

function sameShape(a: JSONSchemaProps | undefined, b: JSONSchemaProps | undefined): boolean {
  return isDeepStrictEqual(shape(a), shape(b));
}

/** A value of the field's type for a required field the source has no counterpart for. */
function zeroValue(schema: JSONSchemaProps, typeRef: string): string {
  if (schema["x-kubernetes-int-or-string"]) return "0";
  switch (schema.type) {
    case "string":
      return '""';
    case "integer":
    case "number":
      return "0";
    case "boolean":
      return "false";
    case "array":
      return "[]";
    default:
      return `{} as ${typeRef}`;
  }
}

const requiredIn = (s: JSONSchemaProps, name: string) => s.required?.includes(name) === true;

export interface Side {
  /** "v1alpha1" */
  version: string;
  /** The TypeScript name of the kind's type in the conversion module: "Captain", "CaptainV1". */
  typeName: string;
  schema: JSONSchemaProps;
}

/**
 * The object literal's properties (after apiVersion/kind/metadata) of a conversion from `from` to
 * `to`, reading the source object `src`; lines are indented for the literal's body.
 */
export function conversionFields(from: Side, to: Side, src: string): string[] {
  const lines: string[] = [];
  const fromProps = from.schema.properties ?? {};
  const toProps = to.schema.properties ?? {};
  for (const [name, target] of Object.entries(toProps)) {
    if (ENVELOPE.has(name)) continue;
    const source = fromProps[name];
    const fromRequired = requiredIn(from.schema, name);
    const toRequired = requiredIn(to.schema, name);
    if (source !== undefined && sameShape(source, target) && (fromRequired || !toRequired)) {
      lines.push(`${name}: ${src}.${name},`);
      continue;
    }
    if (source === undefined || target.type !== "object" || source.type !== "object") {
      lines.push(
        source === undefined
          ? `// TODO(user): ${name} is new in ${to.version}: set it from the ${from.version} fields.`
          : `// TODO(user): ${name} differs between ${from.version} and ${to.version}: convert it here.`,
      );
      if (toRequired) lines.push(`${name}: ${zeroValue(target, `${to.typeName}["${name}"]`)},`);
      continue;
    }
    lines.push(
      ...sectionFields(
        name,
        { ...from, schema: source },
        { ...to, schema: target },
        src,
        fromRequired,
        toRequired,
      ),
    );
  }
  for (const name of Object.keys(fromProps)) {
    if (ENVELOPE.has(name) || name in toProps) continue;
    lines.push(
      `// TODO(user): ${name} of ${from.version} is not in ${to.version}: keep it (e.g. in an annotation) so a round trip loses nothing.`,
    );
  }
  return lines;
}

/** One object field of the root (spec, status): field by field. */
function sectionFields(
  section: string,
  from: Side,
  to: Side,
  src: string,
  fromRequired: boolean,
  toRequired: boolean,
): string[] {
  const access = `${src}.${section}${fromRequired ? "" : "?"}`;
  const body: string[] = [];
  const fromProps = from.schema.properties ?? {};
  const toProps = to.schema.properties ?? {};
  const typeRef = `NonNullable<${to.typeName}["${section}"]>`;
  for (const [name, target] of Object.entries(toProps)) {
    const source = fromProps[name];
    const toReq = requiredIn(to.schema, name);
    const fromReq = requiredIn(from.schema, name) && fromRequired;
    if (source !== undefined && sameShape(source, target) && (fromReq || !toReq)) {
      body.push(`${name}: ${access}.${name},`);
      continue;
    }
    body.push(
      source === undefined
        ? `// TODO(user): ${section}.${name} is new in ${to.version}: set it from the ${from.version} fields.`
        : `// TODO(user): ${section}.${name} differs between ${from.version} and ${to.version}: convert it here.`,
    );
    if (toReq) body.push(`${name}: ${zeroValue(target, `${typeRef}["${name}"]`)},`);
  }
  for (const name of Object.keys(fromProps)) {
    if (name in toProps) continue;
    body.push(
      `// TODO(user): ${section}.${name} of ${from.version} is not in ${to.version}: keep it (e.g. in an annotation) so a round trip loses nothing.`,
    );
  }
  const literal = ["{", ...body.map((l) => `  ${l}`), "}"];
  if (!fromRequired && !toRequired) {
    return [
      `${section}:`,
      `  ${src}.${section} === undefined`,
      "    ? undefined",
      `    : ${literal.join("\n      ")},`,
    ];
  }
  return [`${section}: ${literal.join("\n")},`];
}
