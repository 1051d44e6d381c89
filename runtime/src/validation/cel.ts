/**
 * CEL for x-kubernetes-validations on @marcbachmann/cel-js. Kubernetes adds libraries the package
 * lacks; the cheap, common ones are registered here: lists (isSorted, sum, min, max, indexOf,
 * lastIndexOf), strings (replace, charAt, reverse), regex (find, findAll), sets (contains,
 * equivalent, intersects) and cross-type numeric equality (1 == 1.0). NOT available: quantity(),
 * url(), ip()/cidr(), semver, format.*, authz, strings.quote/format, cost limits, rule ratcheting.
 */
import { Environment, Optional } from "@marcbachmann/cel-js";
import type { JSONSchemaProps, ValidationRule } from "../api/core.js";
import { celPropertyName, ruleTypeProblems } from "./celtypes.js";
import type { FieldError } from "./fielderrors.js";
import { child, index } from "./schema.js";

/** The receiver of Kubernetes' sets.contains/equivalent/intersects (a namespace, not a value). */
class SetsLibrary {}

/** With optionalOldSelf, oldSelf is declared optional<dyn> (cel-js cannot type value() of a dyn optional). */
function newEnvironment(optionalOldSelf: boolean): Environment {
  const env = new Environment({
    unlistedVariablesAreDyn: true,
    enableOptionalTypes: true,
    homogeneousAggregateLiterals: false,
  })
    .registerVariable("self", "dyn")
    .registerVariable("oldSelf", optionalOldSelf ? "optional<dyn>" : "dyn");
  const cmp = (a: unknown, b: unknown) =>
    (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  const extremum = (list: unknown[], sign: number) => {
    if (list.length === 0) throw new Error("min/max of an empty list");
    return list.reduce((best, v) => (cmp(v, best) * sign > 0 ? v : best));
  };
  const indexOf = (list: unknown[], v: unknown) =>
    BigInt(list.findIndex((x) => JSON.stringify(x, big) === JSON.stringify(v, big)));
  const lastIndexOf = (list: unknown[], v: unknown) =>
    BigInt(list.findLastIndex((x) => JSON.stringify(x, big) === JSON.stringify(v, big)));
  for (const [l, r] of [
    ["int", "double"],
    ["uint", "double"],
    ["int", "uint"],
  ]) {
    for (const [op, f] of [
      ["==", (a: unknown, b: unknown) => Number(a) === Number(b)],
      ["!=", (a: unknown, b: unknown) => Number(a) !== Number(b)],
    ] as const) {
      try {
        env.registerOperator(`${l} ${op} ${r}`, f);
      } catch {
        // already provided by the library
      }
    }
  }
  const same = (a: unknown, b: unknown) => JSON.stringify(a, big) === JSON.stringify(b, big);
  const contains = (a: unknown[], b: unknown[]) => b.every((x) => a.some((y) => same(x, y)));
  env
    .registerType("SetsLibrary", SetsLibrary)
    .registerConstant("sets", "SetsLibrary", new SetsLibrary())
    .registerFunction("SetsLibrary.contains(list, list): bool", (_s: unknown, a: unknown[], b: unknown[]) =>
      contains(a, b),
    )
    .registerFunction(
      "SetsLibrary.equivalent(list, list): bool",
      (_s: unknown, a: unknown[], b: unknown[]) => contains(a, b) && contains(b, a),
    )
    .registerFunction("SetsLibrary.intersects(list, list): bool", (_s: unknown, a: unknown[], b: unknown[]) =>
      a.some((x) => b.some((y) => same(x, y))),
    );
  env
    .registerFunction("list.isSorted(): bool", (l: unknown[]) =>
      l.every((v, i) => i === 0 || cmp(l[i - 1], v) <= 0),
    )
    .registerFunction("list.sum(): dyn", (l: unknown[]) =>
      l.length === 0 ? 0n : l.reduce((a, b) => (a as number) + (b as number)),
    )
    .registerFunction("list.min(): dyn", (l: unknown[]) => extremum(l, -1))
    .registerFunction("list.max(): dyn", (l: unknown[]) => extremum(l, 1))
    .registerFunction("list.indexOf(dyn): int", indexOf)
    .registerFunction("list.lastIndexOf(dyn): int", lastIndexOf)
    .registerFunction("string.replace(string, string): string", (s: string, a: string, b: string) =>
      s.replaceAll(a, b),
    )
    .registerFunction(
      "string.replace(string, string, int): string",
      (s: string, a: string, b: string, n: bigint) => {
        let out = s;
        let from = 0;
        for (let i = 0n; n < 0n || i < n; i++) {
          const at = out.indexOf(a, from);
          if (at < 0) break;
          out = out.slice(0, at) + b + out.slice(at + a.length);
          from = at + b.length;
        }
        return out;
      },
    )
    .registerFunction("string.charAt(int): string", (s: string, i: bigint) => [...s][Number(i)] ?? "")
    .registerFunction("string.reverse(): string", (s: string) => [...s].reverse().join(""))
    .registerFunction(
      "string.find(string): string",
      (s: string, re: string) => new RegExp(re).exec(s)?.[0] ?? "",
    )
    .registerFunction("string.findAll(string): list<string>", (s: string, re: string) =>
      [...s.matchAll(new RegExp(re, "g"))].map((m) => m[0]),
    );
  return env;
}

function big(_k: string, v: unknown): unknown {
  return typeof v === "bigint" ? v.toString() : v;
}

const environments = new Map<boolean, Environment>();
function environment(optionalOldSelf: boolean): Environment {
  let env = environments.get(optionalOldSelf);
  if (!env) {
    env = newEnvironment(optionalOldSelf);
    environments.set(optionalOldSelf, env);
  }
  return env;
}

type Program = ReturnType<Environment["parse"]>;

interface CompiledRule {
  rule: ValidationRule;
  program: Program;
  message?: Program;
  transition: boolean;
}

const compiled = new WeakMap<ValidationRule, CompiledRule>();

/** Parses every rule of a schema up front, so a broken rule fails when the CRD is loaded (as the API server rejects it). */
export function compileRules(schema: JSONSchemaProps, where: string, path = ""): void {
  for (const rule of schema["x-kubernetes-validations"] ?? []) {
    compileRule(rule, `${where} at ${path || "<root>"}`);
    // The API server type-checks rules against the schema when the CRD is created: so does the fake.
    const problem = ruleTypeProblems(rule, schema, path === "")[0];
    if (problem) {
      throw new Error(
        `invalid x-kubernetes-validations ${problem.expression} ${JSON.stringify(problem.expression === "rule" ? rule.rule : rule.messageExpression)} in ${where} at ${path || "<root>"}: ${problem.message} (the API server refuses this CRD; fix the +kubebuilder:validation:XValidation marker and run make manifests)`,
      );
    }
  }
  for (const [k, sub] of Object.entries(schema.properties ?? {})) compileRules(sub, where, child(path, k));
  if (typeof schema.additionalProperties === "object")
    compileRules(schema.additionalProperties, where, `${path}[*]`);
  if (schema.items) compileRules(schema.items, where, `${path}[*]`);
}

const programs = new Map<string, Program>();

/** Parses once per distinct expression (fake clients made per test reuse the programs). */
function program(expression: string, optionalOldSelf: boolean): Program {
  const key = `${optionalOldSelf}\0${expression}`;
  let p = programs.get(key);
  if (!p) {
    p = environment(optionalOldSelf).parse(expression);
    programs.set(key, p);
  }
  return p;
}

function compileRule(rule: ValidationRule, where: string): CompiledRule {
  const done = compiled.get(rule);
  if (done) return done;
  try {
    const c: CompiledRule = {
      rule,
      program: program(rule.rule, rule.optionalOldSelf === true),
      transition: /\boldSelf\b/.test(rule.rule),
    };
    if (rule.messageExpression) c.message = program(rule.messageExpression, rule.optionalOldSelf === true);
    compiled.set(rule, c);
    return c;
  } catch (err) {
    throw new Error(
      `invalid x-kubernetes-validations rule ${JSON.stringify(rule.rule)} in ${where}: ${(err as Error).message}`,
    );
  }
}

/** JSON → CEL values guided by the schema: integers become CEL ints (bigint), numbers doubles. */
function toCel(value: unknown, schema: JSONSchemaProps | undefined): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value === "number") {
    const intLike =
      schema?.type === "integer" || (schema?.["x-kubernetes-int-or-string"] && Number.isInteger(value));
    return intLike ? BigInt(value) : value;
  }
  if (Array.isArray(value)) return value.map((v) => toCel(v, schema?.items));
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const declared = schema?.properties?.[k];
      // A declared property is seen by CEL under Kubernetes' escaped name (namespace → __namespace__,
      // x-y → x__dash__y); map keys keep theirs.
      const name = declared ? celPropertyName(k) : k;
      if (name === undefined) continue;
      const sub =
        declared ??
        (typeof schema?.additionalProperties === "object" ? schema.additionalProperties : undefined);
      out[name] = toCel(v, sub);
    }
    return out;
  }
  return value;
}

function ruleError(c: CompiledRule, path: string, value: unknown, message: string): FieldError {
  const fp = c.rule.fieldPath;
  let field = path;
  if (fp)
    field = path
      ? `${path}${fp.startsWith(".") || fp.startsWith("[") ? fp : `.${fp}`}`
      : fp.replace(/^\./, "");
  // Scalars are printed as the bad value; objects and lists are not.
  const omitValue = typeof value === "object" && value !== null;
  switch (c.rule.reason) {
    case "FieldValueForbidden":
      return { type: "Forbidden", field, detail: message };
    case "FieldValueRequired":
      return { type: "Required", field, detail: message };
    case "FieldValueDuplicate":
      return { type: "Duplicate", field, value };
    default:
      return { type: "Invalid", field, value, omitValue, detail: message };
  }
}

function messageFor(c: CompiledRule, vars: Record<string, unknown>): string {
  if (c.message) {
    try {
      const m = c.message(vars);
      if (typeof m === "string" && m.trim() !== "" && !m.includes("\n")) return m;
    } catch {
      // Kubernetes falls back to message (or the default) when messageExpression fails.
    }
  }
  return c.rule.message ?? `failed rule: ${c.rule.rule.trim()}`;
}

/**
 * Runs the x-kubernetes-validations rules of `schema` over `value` (and `old` for transition rules,
 * which only run on update where the old value exists, correlated by field name, map key or
 * list-map key).
 */
export function celErrors(
  value: unknown,
  old: unknown,
  schema: JSONSchemaProps,
  path = "",
  out: FieldError[] = [],
): FieldError[] {
  if (value === undefined || value === null) return out;
  for (const rule of schema["x-kubernetes-validations"] ?? []) {
    const c = compileRule(rule, path || "<root>");
    if (c.transition && old === undefined && !rule.optionalOldSelf) continue;
    const vars: Record<string, unknown> = { self: toCel(value, schema) };
    if (c.transition) {
      // optionalOldSelf: oldSelf is an optional, empty on create, so the rule also runs then.
      if (rule.optionalOldSelf)
        vars.oldSelf = old === undefined ? Optional.none() : Optional.of(toCel(old, schema));
      else vars.oldSelf = toCel(old, schema);
    }
    let ok: unknown;
    try {
      ok = c.program(vars);
    } catch (err) {
      out.push(
        ruleError(
          c,
          path,
          value,
          `${(err as Error).message.split("\n")[0]} evaluating rule: ${rule.rule.trim()}`,
        ),
      );
      continue;
    }
    if (ok !== true) out.push(ruleError(c, path, value, messageFor(c, vars)));
  }
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items) return out;
    const keys =
      schema["x-kubernetes-list-type"] === "map" ? (schema["x-kubernetes-list-map-keys"] ?? []) : undefined;
    value.forEach((item, i) => {
      let oldItem: unknown;
      if (keys && Array.isArray(old)) {
        oldItem = old.find(
          (o) =>
            typeof o === "object" &&
            o !== null &&
            keys.every((k) => JSON.stringify((o as never)[k]) === JSON.stringify(item?.[k])),
        );
      }
      celErrors(item, oldItem, items, index(path, i), out);
    });
    return out;
  }
  if (typeof value === "object") {
    const oldObj =
      typeof old === "object" && old !== null && !Array.isArray(old)
        ? (old as Record<string, unknown>)
        : undefined;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const sub =
        schema.properties?.[k] ??
        (typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined);
      if (sub) celErrors(v, oldObj?.[k], sub, child(path, k), out);
    }
  }
  return out;
}

/** Whether a schema has any x-kubernetes-validations (apiextensions builds no CEL validator otherwise). */
export function hasRules(schema: JSONSchemaProps): boolean {
  if ((schema["x-kubernetes-validations"] ?? []).length > 0) return true;
  const subs = [
    ...Object.values(schema.properties ?? {}),
    ...(typeof schema.additionalProperties === "object" ? [schema.additionalProperties] : []),
    ...(schema.items ? [schema.items] : []),
  ];
  return subs.some(hasRules);
}
