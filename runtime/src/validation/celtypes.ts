/**
 * Type-checks an x-kubernetes-validations rule against its schema, as the API server compiles it
 * when a CRD is created: `self` (and `oldSelf`) get the declared type of the schema node, so an
 * unknown field, an undeclared function or variable, a rule that is not a bool and a
 * messageExpression that is not a string are refused before any object is written.
 *
 * It must never refuse what the API server accepts. @marcbachmann/cel-js lacks most of Kubernetes'
 * CEL libraries (quantity, url, ip, cidr, semver, format, ...) and a few overloads, so only errors
 * that are certain are reported: an unknown field of an object whose fields are all declared, a
 * function name that exists in neither CEL nor Kubernetes' libraries, an unknown variable, and a
 * result type that cel-js inferred completely. Anything else cel-js cannot type is NOT checked here
 * (the API server still checks it on `make install` / envtest start).
 */
import { Environment } from "@marcbachmann/cel-js";
import type { JSONSchemaProps, ValidationRule } from "../api/core.js";

/** Names of functions and macros of CEL and of Kubernetes' CEL libraries (cel-go ext + k8s.io/apiserver/pkg/cel/library). */
const KNOWN_FUNCTIONS = new Set(
  [
    // CEL standard + macros
    "size has all exists exists_one map filter matches contains startsWith endsWith int uint double string bytes bool",
    "type dyn duration timestamp getDate getDayOfMonth getDayOfWeek getDayOfYear getFullYear getHours",
    "getMilliseconds getMinutes getMonth getSeconds in",
    // optional types
    "of none ofNonZeroValue hasValue value orValue or optMap optFlatMap",
    // cel-go ext strings, lists, sets, math, encoders, two-variable comprehensions
    "charAt indexOf lastIndexOf lowerAscii upperAscii replace split substring trim join quote reverse format",
    "slice flatten range distinct sort sortBy first last isSorted sum min max",
    "contains equivalent intersects greatest least ceil floor round trunc abs sign isInf isNaN isFinite",
    "bitAnd bitOr bitXor bitNot bitShiftLeft bitShiftRight sqrt encode decode",
    "transformList transformMap transformMapEntry",
    // Kubernetes libraries: regex, urls, quantity, ip/cidr, semver, format, authz
    "find findAll url isURL getScheme getHost getHostname getPort getEscapedPath getQuery",
    "quantity isQuantity isGreaterThan isLessThan compareTo add sub asInteger asApproximateFloat isInteger",
    "ip isIP cidr isCIDR family isUnspecified isLoopback isLinkLocalMulticast isLinkLocalUnicast isGlobalUnicast",
    "isCanonical containsIP containsCIDR masked prefixLength semver isSemver major minor patch",
    "named validate dns1123Label dns1123Subdomain dns1035Label qualifiedName dns1123LabelPrefix",
    "dns1123SubdomainPrefix dns1035LabelPrefix labelValue uri uuid byte date datetime",
    "authorizer path group resource subresource namespace name check allowed reason errored error",
    "serviceAccount fieldSelector labelSelector",
  ]
    .join(" ")
    .split(" "),
);

/** Library receivers used as namespaces (`sets.contains`, `math.greatest`, `format.dns1123Label()`). */
const KNOWN_NAMESPACES = new Set(["sets", "math", "strings", "base64", "lists", "optional", "format"]);

const RESERVED = new Set(
  "true false null in as break const continue else for function if import let loop package namespace return var void while".split(
    " ",
  ),
);

/** A property name as CEL sees it (Kubernetes' escaping), or undefined when CEL cannot reach it. */
export function celPropertyName(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/.test(name)) return undefined;
  return name
    .replaceAll("__", "__underscores__")
    .replaceAll(".", "__dot__")
    .replaceAll("-", "__dash__")
    .replaceAll("/", "__slash__");
}

/** One certain problem of a rule, in words a user can act on. */
export interface RuleTypeProblem {
  /** Which expression: the rule or its messageExpression. */
  expression: "rule" | "messageExpression";
  message: string;
}

type Declared = string | { [field: string]: Declared };

/** Declares the schema as CEL types; `root` adds what root rules see of metadata (name and generateName). */
class Declarations {
  readonly env: Environment;
  private count = 0;
  /** Object types whose every field is declared (unknown fields are certain errors there). */
  readonly closed = new Set<string>();

  constructor(schema: JSONSchemaProps, root: boolean, optionalOldSelf: boolean) {
    this.env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
    let self = this.type(schema, root);
    if (typeof self !== "string") self = this.declare(self);
    this.env.registerVariable("self", self);
    this.env.registerVariable("oldSelf", optionalOldSelf ? `optional<${self}>` : self);
  }

  private declare(fields: { [field: string]: Declared }): string {
    const name = `Schema${this.count++}`;
    const schema: Record<string, string> = {};
    for (const [k, v] of Object.entries(fields)) schema[k] = typeof v === "string" ? v : this.declare(v);
    this.env.registerType({ name, schema });
    this.closed.add(name);
    return name;
  }

  private type(s: JSONSchemaProps, root = false): Declared {
    if (s["x-kubernetes-int-or-string"] || s["x-kubernetes-preserve-unknown-fields"]) return "dyn";
    if (s["x-kubernetes-embedded-resource"]) return "dyn";
    switch (s.type) {
      case "boolean":
        return "bool";
      case "integer":
        return "int";
      case "number":
        return "double";
      case "string":
        // byte, duration, date and date-time strings are other CEL types: not declared here.
        return s.format && ["byte", "duration", "date", "date-time"].includes(s.format) ? "dyn" : "string";
      case "array":
        return `list<${this.named(s.items ? this.type(s.items) : "dyn")}>`;
      case "object": {
        if (typeof s.additionalProperties === "object")
          return `map<string, ${this.named(this.type(s.additionalProperties))}>`;
        if (!s.properties) return "dyn";
        const fields: { [field: string]: Declared } = {};
        for (const [k, v] of Object.entries(s.properties)) {
          const name = celPropertyName(k);
          if (!name) continue;
          fields[name] = root && k === "metadata" ? { name: "string", generateName: "string" } : this.type(v);
        }
        return fields;
      }
      default:
        return "dyn";
    }
  }

  private named(t: Declared): string {
    return typeof t === "string" ? t : this.declare(t);
  }
}

const declarations = new WeakMap<JSONSchemaProps, Map<string, Declarations>>();

function declarationsFor(schema: JSONSchemaProps, root: boolean, optionalOldSelf: boolean): Declarations {
  let bySchema = declarations.get(schema);
  if (!bySchema) {
    bySchema = new Map();
    declarations.set(schema, bySchema);
  }
  const key = `${root}/${optionalOldSelf}`;
  let d = bySchema.get(key);
  if (!d) {
    d = new Declarations(schema, root, optionalOldSelf);
    bySchema.set(key, d);
  }
  return d;
}

/** Whether `name` is a macro's variable (`x.all(name, ...)`, `x.sortBy(i, v, ...)`), which cel-js may not bind. */
function boundByMacro(expression: string, name: string): boolean {
  return new RegExp(`\\.\\s*\\w+\\(\\s*(?:\\w+\\s*,\\s*)?${name}\\s*,`).test(expression);
}

/** The certain problem of one cel-js type error, or undefined when it may be cel-js' own gap. */
function certain(message: string, expression: string): string | undefined {
  const noKey = /No such key: ([\w$]+)/.exec(message);
  if (noKey) return `it refers to field "${noKey[1]}", which the schema does not declare`;
  // Selecting a field of a scalar (`self.foo` on a string) is refused by cel-go as it is by cel-js.
  const scalar = /Cannot index type '(string|int|uint|double|bool|bytes)'/.exec(message);
  if (scalar) return `it selects a field of a ${scalar[1]} value, which has no fields`;
  const overload = /found no matching overload for '(?:[\w<>, ]+\.)?([\w]+)\(/.exec(message);
  if (overload && !KNOWN_FUNCTIONS.has(overload[1] as string)) {
    return `it calls ${overload[1]}(), which is not a CEL or Kubernetes CEL function`;
  }
  const variable = /Unknown variable: ([\w$]+)/.exec(message);
  if (
    variable &&
    !KNOWN_NAMESPACES.has(variable[1] as string) &&
    !boundByMacro(expression, variable[1] as string)
  ) {
    return `it uses "${variable[1]}", which is not declared (validation rules see only self and oldSelf)`;
  }
  return undefined;
}

/**
 * The certain type problems of a rule on `schema` (the node that carries it; `root` for the
 * object's top level). Syntax errors are not reported here (the parser reports them).
 */
export function ruleTypeProblems(
  rule: ValidationRule,
  schema: JSONSchemaProps,
  root: boolean,
): RuleTypeProblem[] {
  const d = declarationsFor(schema, root, rule.optionalOldSelf === true);
  const problems: RuleTypeProblem[] = [];
  const checks: [RuleTypeProblem["expression"], string | undefined, string][] = [
    ["rule", rule.rule, "bool"],
    ["messageExpression", rule.messageExpression, "string"],
  ];
  for (const [expression, text, want] of checks) {
    if (!text) continue;
    const result = d.env.check(text);
    if (result.valid) {
      if (result.type !== want && result.type !== "dyn") {
        problems.push({
          expression,
          message: `it evaluates to ${result.type}, but a ${expression} must return ${want}`,
        });
      }
      continue;
    }
    if (result.error?.name !== "TypeError") continue;
    const problem = certain(result.error.message, text);
    if (problem) problems.push({ expression, message: problem });
  }
  return problems;
}
