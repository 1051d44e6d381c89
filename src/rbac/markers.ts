import { t } from "../markers/args.js";
import { defineMarker, type MarkerDefinition } from "../markers/registry.js";
import { guardMarker } from "./guard-markers.js";

/** One `+kubebuilder:rbac:...` marker. */
export interface RbacRule {
  groups?: string[];
  resources?: string[];
  resourceNames?: string[];
  verbs: string[];
  urls?: string[];
  namespace?: string;
  roleName?: string;
}

export const rbacMarker = defineMarker<RbacRule>({
  name: "kubebuilder:rbac",
  targets: ["package"],
  args: {
    kind: "fields",
    fields: {
      groups: { type: t.strings, optional: true },
      resources: { type: t.strings, optional: true },
      resourceNames: { type: t.strings, optional: true },
      verbs: { type: t.strings },
      urls: { type: t.strings, optional: true },
      namespace: { type: t.string, optional: true },
      roleName: { type: t.string, optional: true },
    },
  },
  help: "a permission of the manager's role (groups, resources, resourceNames, verbs, urls, namespace, roleName)",
  repeatable: true,
  convert: (args) => checkRule(args as unknown as RbacRule),
});

/** A PolicyRule as the API server validates it (rbac validation.ValidatePolicyRule). */
function checkRule(rule: RbacRule): RbacRule {
  const has = (list: string[] | undefined) => (list ?? []).length > 0;
  if (!has(rule.verbs) || rule.verbs.every((v) => v.trim() === "")) {
    throw new Error("verbs is empty: a rule must allow at least one verb (e.g. verbs=get;list;watch)");
  }
  if (has(rule.urls)) {
    if (has(rule.resources) || has(rule.groups)) {
      throw new Error(
        "a rule cannot apply to both resources (groups, resources) and non-resource urls: write two markers",
      );
    }
    if (rule.namespace)
      throw new Error("non-resource urls are cluster-wide: a namespaced rule cannot have urls");
    return rule;
  }
  if (!has(rule.resources)) {
    throw new Error(
      "a resource rule needs at least one resource (e.g. resources=pods), or urls for non-resource URLs",
    );
  }
  return rule;
}

/** The markers the RBAC generator reads. */
export const rbacGeneratorMarkers: MarkerDefinition[] = [rbacMarker, guardMarker];
