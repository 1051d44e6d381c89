import { formatLocation, type MarkerInstance } from "../markers/registry.js";
import { byLocation, type RbacCheckOptions, scanGrantsAndUsages } from "./check.js";
import type { Usage } from "./check-usage.js";
import type { GuardRule } from "./guard-markers.js";
import { GUARD_VERBS } from "./guard-markers.js";
import type { RbacRule } from "./markers.js";

/**
 * `kbts manifests --explain-rbac`: an audit of what the project's role grants. For every permission of
 * every `+kubebuilder:rbac` marker: the calls that use it (the --check-rbac scan), the `+kbts:guard`
 * that narrows it, and a warning where a cluster-wide write on a core kind is narrowed by nothing.
 */

const WRITE_VERBS = ["create", "update", "patch", "delete", "deletecollection", "*"];
/** Events are append-only records of what happened: a forged one misleads but changes nothing. */
const EXEMPT = new Set(["events"]);

export interface ExplainedPermission {
  group: string;
  resource: string;
  verb: string;
  usedBy: Usage[];
  /** The guards that narrow this write (patch/update). */
  guards: MarkerInstance<GuardRule>[];
  warning?: string;
}

export interface ExplainedRule {
  marker: MarkerInstance<RbacRule>;
  permissions: ExplainedPermission[];
}

const describe = (group: string, resource: string) => (group === "" ? resource : `${resource}.${group}`);
const wild = (granted: string, wanted: string) => granted === "*" || granted === wanted;

export async function explainRbac(opts: RbacCheckOptions): Promise<ExplainedRule[]> {
  const { grants, guards, usages } = await scanGrantsAndUsages(opts);
  return explainGrants(grants, guards, usages);
}

/** Pure, so tests can hand it markers and usages. */
export function explainGrants(
  grants: MarkerInstance<RbacRule>[],
  guards: MarkerInstance<GuardRule>[],
  usages: Usage[],
): ExplainedRule[] {
  return grants.map((marker) => {
    const rule = marker.value;
    const permissions: ExplainedPermission[] = [];
    if ((rule.urls ?? []).length > 0) return { marker, permissions };
    for (const raw of rule.groups ?? [])
      for (const resource of rule.resources ?? [])
        for (const verb of rule.verbs) {
          const group = raw === "core" ? "" : raw;
          const usedBy = usages
            .filter((u) => wild(group, u.group) && wild(resource, u.resource) && wild(verb, u.verb))
            .sort((a, b) => byLocation(a.where, b.where));
          // The policy matches UPDATE requests, which patch and update both are: a guard on either
          // narrows both.
          const narrowing = GUARD_VERBS.includes(verb)
            ? guards.filter((g) => g.value.groups.includes(group) && g.value.resources.includes(resource))
            : [];
          const p: ExplainedPermission = { group, resource, verb, usedBy, guards: narrowing };
          const clusterWide = !rule.namespace;
          if (
            clusterWide &&
            group === "" &&
            WRITE_VERBS.includes(verb) &&
            !EXEMPT.has(resource) &&
            !resource.includes("/") &&
            narrowing.length === 0
          ) {
            p.warning = GUARD_VERBS.includes(verb)
              ? `cluster-wide ${verb} on every ${describe(group, resource)} and no +kbts:guard narrows it: add one naming the fields the code changes`
              : `cluster-wide ${verb} on every ${describe(group, resource)}, which no guard can narrow: make sure the code needs it`;
          }
          permissions.push(p);
        }
    return { marker, permissions };
  });
}

/** A call on one line; a long builder chain by its last call (`….watches(Namespace)`). */
function shortCall(call: string): string {
  const flat = call.replace(/\s+/g, " ");
  if (flat.length <= 60) return flat;
  const last = flat.lastIndexOf(").");
  return last > 0 ? `…${flat.slice(last + 1)}` : flat;
}

/** The audit as printed: each marker, then one line per permission. */
export function formatExplanation(rules: ExplainedRule[]): string {
  const lines: string[] = [];
  let warnings = 0;
  for (const { marker, permissions } of rules) {
    lines.push(`${formatLocation(marker.loc)}: ${marker.text}`);
    if (permissions.length === 0) lines.push("  non-resource URLs: not reached through the client");
    for (const p of permissions) {
      const name = `${p.verb} ${describe(p.group, p.resource)}`;
      const used =
        p.usedBy.length === 0
          ? "unused: no code uses it"
          : `used by ${p.usedBy
              .slice(0, 3)
              .map((u) => `${shortCall(u.call)} at ${u.where}`)
              .join(", ")}${p.usedBy.length > 3 ? ` and ${p.usedBy.length - 3} more` : ""}`;
      lines.push(`  ${name}: ${used}`);
      for (const g of p.guards) {
        lines.push(`    guarded: may change only ${g.value.fields.join(", ")} (${formatLocation(g.loc)})`);
      }
      if (p.warning) {
        warnings++;
        lines.push(`    warning: ${p.warning}`);
      }
    }
  }
  lines.push(
    `explain-rbac: ${rules.length} markers, ${rules.reduce((n, r) => n + r.permissions.length, 0)} permissions, ${warnings} warnings`,
  );
  return `${lines.join("\n")}\n`;
}
