import type { JSONSchemaProps } from "@kbts/runtime";
import { celPropertyName, ruleTypeProblems } from "@kbts/runtime/fake";
import { Environment } from "@marcbachmann/cel-js";
import { ts } from "ts-morph";
import type { BuiltCrd } from "../crd/build.js";
import { KbtsError } from "../errors.js";
import type { MarkerCollector } from "../markers/collect.js";
import { printColumn, selectableField } from "../markers/defs/crd.js";
import { editDistance, formatLocation, type MarkerInstance, type MarkerSet } from "../markers/registry.js";

/**
 * Checks beyond controller-gen, against the resolved schemas: printcolumn and selectablefield paths,
 * listMapKey fields, default values, and CEL rules (syntax and `self.<field>` references), each
 * reported at its marker. The TypeScript types are walked alongside the generated schema so every
 * marker meets the schema node it produced.
 */
export function checkCrds(
  crds: BuiltCrd[],
  collector: MarkerCollector,
  checker: ts.TypeChecker,
  errors: KbtsError[],
): void {
  for (const { crd, versions } of crds) {
    for (const v of crd.spec.versions) {
      const kind = versions.get(v.name);
      if (!kind) continue;
      const root = v.schema.openAPIV3Schema;
      const markers = collector.forNode(kind.decl).markers;
      for (const m of markers.list(printColumn)) {
        if (checkColumn(m, errors))
          checkPath(m, String((m.value as Record<string, unknown>).JSONPath ?? ""), root, errors);
      }
      for (const m of markers.list(selectableField)) {
        checkPath(m, String((m.value as Record<string, unknown>).JSONPath ?? ""), root, errors);
      }
      new Walk(collector, checker, errors, root).type(
        checker.getTypeAtLocation(kind.decl.name),
        root,
        kind.decl.name.text,
        0,
      );
    }
  }
}

const at = (m: MarkerInstance) => formatLocation(m.loc);

// The syntax Kubernetes accepts includes optional field selection (`self.?x.orValue(...)`).
const celSyntax = new Environment({ enableOptionalTypes: true });
const parseCel = (expression: string) => celSyntax.parse(expression);

function closest(name: string, options: string[]): string | undefined {
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const o of options) {
    const d = editDistance(name, o);
    if (d < bestD) {
      bestD = d;
      best = o;
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(name.length / 2)) ? best : undefined;
}

const isOpen = (s: JSONSchemaProps) =>
  s["x-kubernetes-preserve-unknown-fields"] === true ||
  (!s.properties && s.type === "object") ||
  s.type === undefined;

// What apiextensions' ValidateCustomResourceColumnDefinition accepts.
const COLUMN_TYPES = ["boolean", "date", "integer", "number", "string"];
const COLUMN_FORMATS = ["byte", "date", "date-time", "double", "float", "int32", "int64", "password"];

/** A printer column's type, format and path as the API server validates them; false when its path is unusable. */
function checkColumn(m: MarkerInstance, errors: KbtsError[]): boolean {
  const v = m.value as Record<string, unknown>;
  const name = `+kubebuilder:printcolumn:name=${JSON.stringify(String(v.name ?? ""))}`;
  const type = String(v.type ?? "");
  if (!COLUMN_TYPES.includes(type)) {
    const guess = closest(type, COLUMN_TYPES);
    errors.push(
      new KbtsError(
        `${name}: type=${type} is not a printer column type; the API server would refuse the CRD`,
        {
          where: at(m),
          fix: `use type=${guess ?? "string"} (one of ${COLUMN_TYPES.join(", ")})`,
        },
      ),
    );
  }
  const format = v.format === undefined ? "" : String(v.format);
  if (format !== "" && !COLUMN_FORMATS.includes(format)) {
    const guess = closest(format, COLUMN_FORMATS);
    errors.push(
      new KbtsError(
        `${name}: format=${format} is not a printer column format; the API server would refuse the CRD`,
        {
          where: at(m),
          fix: `${guess ? `use format=${guess}, or ` : ""}drop format (one of ${COLUMN_FORMATS.join(", ")})`,
        },
      ),
    );
  }
  const path = String(v.JSONPath ?? "");
  if (path === "" || !path.startsWith(".")) {
    const simple = path.replace(/^\{(.*)\}$/, "$1").replace(/^\$/, "");
    errors.push(
      new KbtsError(
        `${name}: JSONPath=${JSON.stringify(path)} must be a simple path starting with "." (no {} or $); the API server would refuse the CRD`,
        {
          where: at(m),
          fix: `write JSONPath=${JSON.stringify(simple.startsWith(".") ? simple : `.${simple}`)}`,
        },
      ),
    );
    return false;
  }
  return true;
}

/** A JSONPath as printer columns and selectable fields use them: `.a.b[0].c`, `.a[?(@.x=="y")].b`. */
function checkPath(m: MarkerInstance, path: string, root: JSONSchemaProps, errors: KbtsError[]): void {
  const segments = path
    .replace(/\[[^\]]*\]/g, "[]")
    .split(/(?=\.)|(?=\[\])/)
    .filter((s) => s !== "");
  let node: JSONSchemaProps = root;
  let walked = "";
  for (const seg of segments) {
    if (seg === "[]") {
      if (node.type === "array" && node.items) node = node.items;
      else if (!isOpen(node)) {
        errors.push(new KbtsError(`${path}: ${walked || "."} is not a list`, { where: at(m) }));
        return;
      }
      walked += seg;
      continue;
    }
    const name = seg.slice(1);
    if (name === "" || isOpen(node)) return;
    const next =
      node.properties?.[name] ??
      (typeof node.additionalProperties === "object" ? node.additionalProperties : undefined);
    if (!next) {
      const guess = closest(name, Object.keys(node.properties ?? {}));
      errors.push(
        new KbtsError(
          `JSONPath ${path}: ${walked || "the object"} has no field "${name}"${guess ? ` (did you mean ${guess}?)` : ""}`,
          {
            where: at(m),
            fix: `point it at an existing field${guess ? `, e.g. ${walked}.${guess}` : ""}`,
          },
        ),
      );
      return;
    }
    node = next;
    walked += seg;
  }
}

class Walk {
  private seen = new Set<ts.Type>();
  constructor(
    private readonly collector: MarkerCollector,
    private readonly checker: ts.TypeChecker,
    private readonly errors: KbtsError[],
    private readonly root: JSONSchemaProps,
  ) {}

  /** A TS type and the schema it produced; type-level markers of its declaration are checked here. */
  type(type: ts.Type, schema: JSONSchemaProps, owner: string, depth: number): void {
    if (depth > 40 || this.seen.has(type)) return;
    const decl = type.aliasSymbol?.declarations?.[0] ?? type.getSymbol()?.declarations?.[0];
    if (decl && (ts.isInterfaceDeclaration(decl) || ts.isTypeAliasDeclaration(decl))) {
      this.markers(this.collector.forNode(decl).markers, schema, decl.name.text);
    }
    if (schema.type === "array" && schema.items) {
      const el = this.elementType(type);
      if (el) this.type(el, schema.items, owner, depth + 1);
      return;
    }
    if (!schema.properties) return;
    this.seen.add(type);
    for (const prop of this.checker.getPropertiesOfType(type)) {
      const pd = (prop.valueDeclaration ?? prop.declarations?.[0]) as ts.Declaration | undefined;
      const ps = schema.properties[prop.getName()];
      if (!pd || !ps || !ts.isPropertySignature(pd) || !pd.type) continue;
      this.markers(this.collector.forNode(pd).markers, ps, `${owner}.${prop.getName()}`);
      this.type(this.checker.getTypeFromTypeNode(pd.type), ps, `${owner}.${prop.getName()}`, depth + 1);
    }
    this.seen.delete(type);
  }

  private elementType(type: ts.Type): ts.Type | undefined {
    const t = type.getNonNullableType();
    if (this.checker.isArrayType(t)) return this.checker.getTypeArguments(t as ts.TypeReference)[0];
    return undefined;
  }

  private markers(markers: MarkerSet, schema: JSONSchemaProps, owner: string): void {
    for (const m of markers.all) {
      const name = m.def.name;
      if (name.endsWith("listMapKey")) this.listMapKey(m, schema);
      else if (name === "kubebuilder:default" || name === "default") this.defaultValue(m, schema);
      else if (name.endsWith("XValidation") && !name.includes("items:")) this.rule(m, schema, owner);
    }
  }

  private listMapKey(m: MarkerInstance, schema: JSONSchemaProps): void {
    const key = m.value as string;
    const item = schema.items;
    if (!item?.properties || isOpen(item)) return;
    if (!(key in item.properties)) {
      const guess = closest(key, Object.keys(item.properties));
      this.errors.push(
        new KbtsError(
          `+listMapKey=${key}: the list's items have no field "${key}"${guess ? ` (did you mean ${guess}?)` : ""}`,
          {
            where: at(m),
            fix: `use a field of the item type (${Object.keys(item.properties).sort().join(", ")})`,
          },
        ),
      );
      return;
    }
    // The API server rejects the CRD otherwise (kubernetes#91395).
    const prop = item.properties[key] as JSONSchemaProps;
    if (!(item.required ?? []).includes(key) && prop.default === undefined) {
      this.errors.push(
        new KbtsError(
          `+listMapKey=${key}: "${key}" must be required or have a default, or the API server rejects the CRD`,
          { where: at(m), fix: `make ${key} required (no ?) or give it a +kubebuilder:default` },
        ),
      );
    }
  }

  private defaultValue(m: MarkerInstance, schema: JSONSchemaProps): void {
    if (m.value === undefined || schema.default === undefined) return;
    const problem = mismatch(schema.default, schema, "");
    if (problem) {
      this.errors.push(
        new KbtsError(`+${m.def.name}=${JSON.stringify(schema.default)}: ${problem}`, {
          where: at(m),
          fix: "give a default of the field's type",
        }),
      );
    }
  }

  private rule(m: MarkerInstance, schema: JSONSchemaProps, owner: string): void {
    const rule = (m.value as Record<string, unknown>).rule as string;
    try {
      parseCel(rule);
    } catch (err) {
      this.errors.push(
        new KbtsError(
          `CEL rule ${JSON.stringify(rule)} does not parse: ${(err as Error).message.split("\n")[0]}`,
          {
            where: at(m),
            fix: "fix the rule's syntax (see https://kubernetes.io/docs/reference/using-api/cel/)",
          },
        ),
      );
      return;
    }
    const messageExpression = (m.value as Record<string, unknown>).messageExpression;
    if (typeof messageExpression === "string" && messageExpression !== "") {
      try {
        parseCel(messageExpression);
      } catch (err) {
        this.errors.push(
          new KbtsError(
            `CEL messageExpression ${JSON.stringify(messageExpression)} does not parse: ${(err as Error).message.split("\n")[0]}`,
            { where: at(m), fix: "fix the expression's syntax" },
          ),
        );
      }
    }
    // Type-checked against the schema as the API server compiles it; only certain problems are reported.
    const value = m.value as Record<string, unknown>;
    const problems = ruleTypeProblems(
      {
        rule,
        ...(typeof messageExpression === "string" && messageExpression !== "" ? { messageExpression } : {}),
        ...(value.optionalOldSelf === true ? { optionalOldSelf: true } : {}),
      },
      schema,
      schema === this.root,
    );
    const typeName = owner.split(".").pop() ?? owner;
    for (const p of problems) {
      const field = /field "([^"]+)"/.exec(p.message)?.[1];
      const guess = field
        ? closest(
            field,
            Object.keys(schema.properties ?? {}).map((k) => celPropertyName(k) ?? k),
          )
        : undefined;
      const text = p.expression === "rule" ? rule : String(messageExpression);
      this.errors.push(
        new KbtsError(
          `CEL ${p.expression} ${JSON.stringify(text)} on ${typeName}: ${p.message}${guess ? ` (did you mean self.${guess}?)` : ""}; the API server would refuse the CRD`,
          {
            where: at(m),
            fix:
              p.expression === "rule"
                ? "fix the rule of +kubebuilder:validation:XValidation (it must be a bool over self/oldSelf; see https://kubernetes.io/docs/reference/using-api/cel/)"
                : "make messageExpression of +kubebuilder:validation:XValidation a string expression",
          },
        ),
      );
    }
  }
}

/** Why `value` does not fit `schema` (type, enum, nested properties), or undefined. */
function mismatch(value: unknown, schema: JSONSchemaProps, path: string): string | undefined {
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
