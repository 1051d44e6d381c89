import { compareStrings } from "../compare.js";
import type { JsonValue } from "../yaml/emit.js";
import type { RbacRule } from "./markers.js";

/**
 * Merges RBAC markers into ClusterRole/Role objects exactly as controller-gen's GenerateRoles:
 * one rule per resource, grouped by (namespace, role name), then merged by full key (verbs unioned),
 * by everything but resources, by everything but groups, by everything but URLs; sorted by key.
 */
interface Rule {
  groups: string[];
  resources: string[];
  resourceNames: string[];
  urls: string[];
  verbs: string[];
}

const uniqSorted = (xs: string[]): string[] => [...new Set(xs)].sort(compareStrings);

function normalize(r: Rule): Rule {
  return {
    groups: uniqSorted(r.groups),
    resources: uniqSorted(r.resources),
    resourceNames: uniqSorted(r.resourceNames),
    urls: uniqSorted(r.urls),
    verbs: uniqSorted(r.verbs),
  };
}

const j = (xs: string[]) => xs.join("&");
const fullKey = (r: Rule) => `${j(r.groups)} + ${j(r.resources)} + ${j(r.resourceNames)} + ${j(r.urls)}`;

/** Groups rules by `key`, unions `field` within a group, renormalizes. */
function mergeBy(rules: Rule[], key: (r: Rule) => string, field: keyof Rule): Rule[] {
  const groups = new Map<string, Rule[]>();
  for (const r of rules) {
    const k = key(r);
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const merged = new Map<string, Rule>();
  for (const rs of groups.values()) {
    const first = rs[0] as Rule;
    const out = normalize({ ...first, [field]: rs.flatMap((r) => r[field]) });
    merged.set(fullKey(out), out);
  }
  return [...merged.values()];
}

export function normalizeRules(input: Rule[]): Rule[] {
  const byKey = new Map<string, Rule>();
  for (const raw of input) {
    const r = normalize({ ...raw, groups: raw.groups.map((g) => (g === "core" ? "" : g)) });
    const k = fullKey(r);
    const prev = byKey.get(k);
    byKey.set(k, prev ? { ...prev, verbs: uniqSorted([...prev.verbs, ...r.verbs]) } : r);
  }
  let rules = [...byKey.values()];
  rules = mergeBy(
    rules,
    (r) => `${j(r.groups)} + ${j(r.resourceNames)} + ${j(r.urls)} + ${j(r.verbs)}`,
    "resources",
  );
  rules = mergeBy(
    rules,
    (r) => `${j(r.resources)} + ${j(r.resourceNames)} + ${j(r.urls)} + ${j(r.verbs)}`,
    "groups",
  );
  rules = mergeBy(
    rules,
    (r) => `${j(r.groups)} + ${j(r.resources)} + ${j(r.resourceNames)} + ${j(r.verbs)}`,
    "urls",
  );
  rules.sort((a, b) => compareStrings(fullKey(a), fullKey(b)));
  return rules.map((r) => (r.verbs.includes("*") ? { ...r, verbs: ["*"] } : r));
}

function toPolicyRule(r: Rule): JsonValue {
  const out: { [k: string]: JsonValue } = {};
  if (r.groups.length) out.apiGroups = r.groups;
  if (r.urls.length) out.nonResourceURLs = r.urls;
  if (r.resourceNames.length) out.resourceNames = r.resourceNames;
  if (r.resources.length) out.resources = r.resources;
  out.verbs = r.verbs;
  return out;
}

/** The role objects for config/rbac/role.yaml; empty when there is no rule (no file is written). */
export function generateRoles(markers: RbacRule[], defaultRoleName: string): JsonValue[] {
  const byRole = new Map<string, { namespace: string; roleName: string; rules: Rule[] }>();
  for (const m of markers) {
    const namespace = m.namespace ?? "";
    const roleName = m.roleName || defaultRoleName;
    const key = `${namespace}\u0000${roleName}`;
    let entry = byRole.get(key);
    if (!entry) {
      entry = { namespace, roleName, rules: [] };
      byRole.set(key, entry);
    }
    const base = {
      groups: m.groups ?? [],
      resourceNames: m.resourceNames ?? [],
      urls: m.urls ?? [],
      verbs: m.verbs,
    };
    const resources = m.resources ?? [];
    if (resources.length === 0) entry.rules.push({ ...base, resources: [] });
    for (const resource of resources) entry.rules.push({ ...base, resources: [resource] });
  }
  const roles = [...byRole.values()].sort(
    (a, b) => compareStrings(a.namespace, b.namespace) || compareStrings(a.roleName, b.roleName),
  );
  const out: JsonValue[] = [];
  for (const role of roles) {
    const rules = normalizeRules(role.rules).map(toPolicyRule);
    if (rules.length === 0) continue;
    out.push(
      role.namespace === ""
        ? {
            apiVersion: "rbac.authorization.k8s.io/v1",
            kind: "ClusterRole",
            metadata: { name: role.roleName },
            rules,
          }
        : {
            apiVersion: "rbac.authorization.k8s.io/v1",
            kind: "Role",
            metadata: { name: role.roleName, namespace: role.namespace },
            rules,
          },
    );
  }
  return out;
}
