import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { JSONSchemaProps } from "@kbts/runtime";
import { celPropertyName } from "@kbts/runtime/validation";
import { Environment } from "@marcbachmann/cel-js";
import { parse } from "yaml";
import { compareStrings } from "../compare.js";
import type { CustomResourceDefinition } from "../crd/types.js";
import { KbtsError } from "../errors.js";
import { formatLocation, type MarkerInstance } from "../markers/registry.js";
import type { JsonValue } from "../yaml/emit.js";
import { type GuardField, type GuardRule, parseGuardField } from "./guard-markers.js";
import { BUILTIN_RESOURCES, WRITABLE_METADATA } from "./guard-resources.js";
import type { RbacRule } from "./markers.js";

/**
 * `+kbts:guard` markers → one ValidatingAdmissionPolicy (and its binding) per guarded resource, for
 * config/rbac/write_guards.yaml. The policy matches UPDATE requests (patch and update) of that
 * resource by the manager's ServiceAccount only, and refuses those that change anything but the
 * allowed fields: labels and annotations key by key, every other writable field by presence and
 * equality of old and new object (server-managed metadata is never compared: it changes on every write).
 */

export const GUARDS_FILE = "config/rbac/write_guards.yaml";

export interface GuardInputs {
  root: string;
  guards: MarkerInstance<GuardRule>[];
  rbac: MarkerInstance<RbacRule>[];
  crds: CustomResourceDefinition[];
  /** Files read to name the ServiceAccount (for the input-hash cache): path → text. */
  read?: Map<string, string>;
}

interface Target {
  group: string;
  resource: string;
  schema: JSONSchemaProps;
  verbs: Set<string>;
  fields: Map<string, GuardField>;
  markers: MarkerInstance<GuardRule>[];
}

/** The policy and binding objects, in resource order; errors (at the marker) are pushed to `errors`. */
export function generateGuards(inputs: GuardInputs, errors: KbtsError[]): JsonValue[] {
  if (inputs.guards.length === 0) return [];
  const targets = new Map<string, Target>();
  for (const m of inputs.guards) {
    const where = formatLocation(m.loc);
    for (const group of m.value.groups)
      for (const resource of m.value.resources) {
        const schema = resourceSchema(group, resource, inputs.crds);
        if (!schema) {
          errors.push(
            new KbtsError(`+kbts:guard: unknown resource ${describe(group, resource)}`, {
              where,
              fix: `name a resource of this project's CRDs or a built-in one kbts knows (${knownList()})`,
            }),
          );
          continue;
        }
        for (const verb of m.value.verbs) {
          if (!inputs.rbac.some((r) => grants(r.value, group, resource, verb))) {
            errors.push(
              new KbtsError(
                `+kbts:guard: ${verb} on ${describe(group, resource)} is guarded but no +kubebuilder:rbac marker grants it`,
                {
                  where,
                  fix: `add // +kubebuilder:rbac:groups=${group === "" ? '""' : group},resources=${resource},verbs=${verb}, or drop the verb from the guard`,
                },
              ),
            );
          }
        }
        const key = `${group}/${resource}`;
        let target = targets.get(key);
        if (!target) {
          target = { group, resource, schema, verbs: new Set(), fields: new Map(), markers: [] };
          targets.set(key, target);
        }
        for (const v of m.value.verbs) target.verbs.add(v);
        target.markers.push(m);
        for (const text of m.value.fields) {
          const field = parseGuardField(text);
          const problem = fieldProblem(field, schema, describe(group, resource));
          if (problem) errors.push(new KbtsError(`+kbts:guard: ${problem}`, { where }));
          else target.fields.set(text, field);
        }
      }
  }
  const username = managerUsername(inputs, formatLocation((inputs.guards[0] as MarkerInstance).loc), errors);
  if (errors.length > 0 || username === undefined) return [];
  const out: JsonValue[] = [];
  const sorted = [...targets.values()].sort(
    (a, b) => compareStrings(a.group, b.group) || compareStrings(a.resource, b.resource),
  );
  for (const target of sorted) {
    const { policy, expressions } = policyFor(target, username);
    for (const problem of typeProblems(expressions, target.schema)) {
      errors.push(
        new KbtsError(`+kbts:guard: the generated CEL does not type-check: ${problem}`, {
          where: formatLocation((target.markers[0] as MarkerInstance).loc),
        }),
      );
    }
    out.push(policy, {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "ValidatingAdmissionPolicyBinding",
      metadata: { name: policyName(target) },
      spec: { policyName: policyName(target), validationActions: ["Deny"] },
    });
  }
  return errors.length > 0 ? [] : out;
}

const describe = (group: string, resource: string) => (group === "" ? resource : `${resource}.${group}`);

const policyName = (t: Target) => `manager-guard-${describe(t.group, t.resource)}`;

function knownList(): string {
  return Object.entries(BUILTIN_RESOURCES)
    .flatMap(([g, rs]) => Object.keys(rs).map((r) => describe(g, r)))
    .join(", ");
}

function resourceSchema(
  group: string,
  resource: string,
  crds: CustomResourceDefinition[],
): JSONSchemaProps | undefined {
  const crd = crds.find((c) => c.spec.group === group && c.spec.names.plural === resource);
  if (crd) {
    const version = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0];
    return (version?.schema as { openAPIV3Schema?: JSONSchemaProps } | undefined)?.openAPIV3Schema;
  }
  return BUILTIN_RESOURCES[group]?.[resource];
}

const matches = (granted: string[] | undefined, wanted: string) =>
  (granted ?? []).some((g) => g === "*" || g === wanted);

/** Whether an RBAC marker grants `verb` on the resource (cluster-wide or in a namespace). */
export function grants(rule: RbacRule, group: string, resource: string, verb: string): boolean {
  if ((rule.urls ?? []).length > 0) return false;
  const groups = (rule.groups ?? []).map((g) => (g === "core" ? "" : g));
  return matches(groups, group) && matches(rule.resources, resource) && matches(rule.verbs, verb);
}

/** Why a field cannot be guarded on this schema, or undefined. */
function fieldProblem(field: GuardField, schema: JSONSchemaProps, resource: string): string | undefined {
  if (field.kind === "key") return undefined;
  const [first, ...rest] = field.path;
  if (first === "metadata") {
    if (rest.length === 1 && WRITABLE_METADATA.includes(rest[0] as string)) return undefined;
    return `field ${field.text}: a guard may allow metadata.${WRITABLE_METADATA.join(", metadata.")} or one key of labels/annotations (metadata.labels['key']); the rest of metadata is server-managed or immutable`;
  }
  if (first === "apiVersion" || first === "kind") return `field ${field.text} cannot change`;
  let node: JSONSchemaProps | undefined = schema;
  for (const [i, seg] of field.path.entries()) {
    const props: Record<string, JSONSchemaProps> | undefined = node?.properties;
    if (!props || Object.keys(props).length === 0) {
      const at = field.path.slice(0, i).join(".");
      return `field ${field.text}: kbts does not know the fields of ${at} of ${resource}: allow ${at} as a whole`;
    }
    node = props[seg];
    if (!node) {
      const at = field.path.slice(0, i + 1).join(".");
      return `field ${field.text}: ${resource} has no field ${at} (it has ${Object.keys(props).join(", ")})`;
    }
  }
  return undefined;
}

/**
 * `system:serviceaccount:<namespace>:<name>` of the manager as kustomize deploys it: config/default's
 * namespace and namePrefix applied to config/rbac/service_account.yaml's name.
 */
function managerUsername(inputs: GuardInputs, where: string, errors: KbtsError[]): string | undefined {
  const read = (rel: string): Record<string, unknown> | undefined => {
    try {
      const text = readFileSync(join(inputs.root, rel), "utf8");
      inputs.read?.set(join(inputs.root, rel), text);
      const value = parse(text) as unknown;
      return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
    } catch {
      return undefined;
    }
  };
  const kustomization = read("config/default/kustomization.yaml");
  const account = read("config/rbac/service_account.yaml");
  const namespace = kustomization?.namespace;
  const name = (account?.metadata as { name?: unknown } | undefined)?.name;
  if (typeof namespace !== "string" || typeof name !== "string") {
    errors.push(
      new KbtsError("+kbts:guard: cannot tell the manager's ServiceAccount, which the write guards are for", {
        where,
        fix: "keep config/default/kustomization.yaml's namespace: and config/rbac/service_account.yaml's metadata.name (as kbts init writes them)",
      }),
    );
    return undefined;
  }
  const prefix = typeof kustomization?.namePrefix === "string" ? kustomization.namePrefix : "";
  return `system:serviceaccount:${namespace}:${prefix}${name}`;
}

/** A single-quoted CEL string literal. */
export function celString(s: string): string {
  return `'${s.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

interface Expressions {
  variables: Array<{ name: string; expression: string }>;
  checks: Array<{ expression: string; message?: string; messageExpression?: string }>;
}

/** CEL member access for a field path (properties named like `x-y` are escaped as Kubernetes does). */
const access = (root: string, path: string[]) =>
  [root, ...path.map((p) => celPropertyName(p) ?? p)].join(".");

function policyFor(target: Target, username: string): { policy: JsonValue; expressions: Expressions } {
  const resource = describe(target.group, target.resource);
  const files = [...new Set(target.markers.map((m) => m.loc.file))].join(", ");
  const allowed = [...target.fields.keys()].sort(compareStrings);
  const marker = (field: string) =>
    `// +kbts:guard:groups=${target.group === "" ? '""' : target.group},resources=${target.resource},verbs=${[...target.verbs].sort(compareStrings).join(";")},fields=${field}`;
  const refused = (field: string) =>
    `kbts write guard: the manager may change only ${allowed.join(", ")} of ${resource}, and this request changes ${field}; to allow it, add (in ${files}): ${marker(field)}`;
  const e: Expressions = { variables: [], checks: [] };
  const fields = [...target.fields.values()];

  for (const map of ["labels", "annotations"] as const) {
    if (fields.some((f) => f.kind === "path" && f.path.join(".") === `metadata.${map}`)) continue;
    const keys = fields.flatMap((f) => (f.kind === "key" && f.map === map ? [f.key] : []));
    const v = (n: string) => `variables.${n}`;
    const Which = map === "labels" ? "Labels" : "Annotations";
    e.variables.push(
      { name: `allowed${Which}`, expression: `[${keys.sort(compareStrings).map(celString).join(", ")}]` },
      {
        name: `old${Which}`,
        expression: `has(oldObject.metadata.${map}) ? oldObject.metadata.${map} : {}`,
      },
      { name: `new${Which}`, expression: `has(object.metadata.${map}) ? object.metadata.${map} : {}` },
      {
        name: `changed${Which}`,
        expression: `${v(`new${Which}`)}.filter(k, !(k in ${v(`allowed${Which}`)}) && !(k in ${v(`old${Which}`)} && ${v(`old${Which}`)}[k] == ${v(`new${Which}`)}[k])) + ${v(`old${Which}`)}.filter(k, !(k in ${v(`allowed${Which}`)}) && !(k in ${v(`new${Which}`)}))`,
      },
    );
    // The key is named twice: as the field changed and in the marker that would allow it.
    const parts = refused(`metadata.${map}['\u0000']`).split("\u0000");
    e.checks.push({
      expression: `size(${v(`changed${Which}`)}) == 0`,
      messageExpression: parts.map(celString).join(` + ${v(`changed${Which}`)}[0] + `),
    });
  }

  const allowedPaths = fields.flatMap((f) => (f.kind === "path" ? [f.path] : []));
  for (const name of WRITABLE_METADATA.filter((n) => n !== "labels" && n !== "annotations")) {
    if (allowedPaths.some((p) => p.join(".") === `metadata.${name}`)) continue;
    e.checks.push({ expression: same(["metadata", name], []), message: refused(`metadata.${name}`) });
  }
  const compare = (path: string[], schema: JSONSchemaProps, under: string[][], ancestors: string[][]) => {
    for (const prop of Object.keys(schema.properties ?? {}).sort(compareStrings)) {
      if (path.length === 0 && ["apiVersion", "kind", "metadata"].includes(prop)) continue;
      const here = [...path, prop];
      const inside = under.filter((p) => p[0] === prop).map((p) => p.slice(1));
      if (inside.some((p) => p.length === 0)) continue;
      if (inside.length === 0) {
        e.checks.push({ expression: same(here, ancestors), message: refused(here.join(".")) });
        continue;
      }
      // Some field below is allowed: the object itself must stay (or stay absent), its other fields equal.
      e.checks.push({
        expression: guarded(`has(${access("object", here)}) == has(${access("oldObject", here)})`, ancestors),
        message: refused(here.join(".")),
      });
      compare(here, schema.properties?.[prop] ?? {}, inside, [...ancestors, here]);
    }
  };
  compare([], target.schema, allowedPaths, []);

  const policy: JsonValue = {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicy",
    metadata: { name: policyName(target) },
    spec: {
      failurePolicy: "Fail",
      matchConstraints: {
        resourceRules: [
          {
            apiGroups: [target.group],
            apiVersions: ["*"],
            operations: ["UPDATE"],
            resources: [target.resource],
          },
        ],
      },
      matchConditions: [
        {
          name: "manager-service-account",
          expression: `request.userInfo.username == ${celString(username)}`,
        },
      ],
      variables: e.variables,
      validations: e.checks.map((c) => ({ ...c, reason: "Forbidden" })),
    },
  };
  return { policy, expressions: e };
}

/** Presence and value equal in old and new object, for a path whose ancestors exist in both. */
function same(path: string[], ancestors: string[][]): string {
  const n = access("object", path);
  const o = access("oldObject", path);
  return guarded(`has(${n}) == has(${o}) && (!has(${n}) || ${n} == ${o})`, ancestors);
}

function guarded(expression: string, ancestors: string[][]): string {
  if (ancestors.length === 0) return expression;
  const absent = ancestors.flatMap((a) => [
    `!has(${access("object", a)})`,
    `!has(${access("oldObject", a)})`,
  ]);
  return `${absent.join(" || ")} || (${expression})`;
}

/**
 * Type-checks the generated expressions as the API server would: object and oldObject with the
 * resource's fields (metadata typed, as the server types it), request, and the policy's variables.
 */
function typeProblems(e: Expressions, schema: JSONSchemaProps): string[] {
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
  const map = "map<string, string>";
  env.registerType({
    name: "ObjectMeta",
    schema: {
      name: "string",
      namespace: "string",
      labels: map,
      annotations: map,
      finalizers: "list<string>",
      ownerReferences: "list<dyn>",
    },
  });
  const top: Record<string, string> = { apiVersion: "string", kind: "string", metadata: "ObjectMeta" };
  for (const p of Object.keys(schema.properties ?? {})) {
    const name = celPropertyName(p);
    if (name && !(p in top)) top[name] = "dyn";
  }
  env.registerType({ name: "Object", schema: top });
  env.registerType({ name: "UserInfo", schema: { username: "string", groups: "list<string>" } });
  env.registerType({ name: "Request", schema: { operation: "string", userInfo: "UserInfo" } });
  const vars: Record<string, string> = {};
  for (const v of e.variables) vars[v.name] = "dyn";
  env.registerType({ name: "Variables", schema: vars });
  env
    .registerVariable("object", "Object")
    .registerVariable("oldObject", "Object")
    .registerVariable("request", "Request")
    .registerVariable("variables", "Variables");
  const problems: string[] = [];
  const check = (expression: string, want: string) => {
    const r = env.check(expression);
    if (!r.valid) problems.push(`${expression}: ${r.error?.message.split("\n")[0]}`);
    else if (r.type !== want && r.type !== "dyn") problems.push(`${expression}: is ${r.type}, not ${want}`);
  };
  for (const v of e.variables) {
    const r = env.check(v.expression);
    if (!r.valid) problems.push(`${v.expression}: ${r.error?.message.split("\n")[0]}`);
  }
  for (const c of e.checks) {
    check(c.expression, "bool");
    if (c.messageExpression) check(c.messageExpression, "string");
  }
  return problems;
}
